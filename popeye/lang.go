package popeye

import (
	"slices"
	"strings"

	"mateline.dev/mateline/board"
)

// language is one of Popeye's input languages, which a file chooses by its
// first word (BeginProblem, AnfangProblem, DebutProbleme): its words for
// the English keywords, and its piece letters.
type language struct {
	name  string
	begin string
	// words maps an English keyword to this language's (none: the same)
	words map[string]string
	// pieces are the letters of the king, queen, rook, bishop, knight and
	// pawn, in that order
	pieces string
}

var (
	english = &language{name: "English", begin: "beginproblem", pieces: "kqrbsp"}
	german  = &language{name: "German", begin: "AnfangProblem", pieces: "kdtlsb", words: map[string]string{
		"remark": "Bemerkung", "author": "Autor", "origin": "Quelle", "title": "Titel", "award": "Auszeichnung",
		"protocol": "Protokoll", "condition": "Bedingung", "stipulation": "Forderung", "sstipulation": "sForderung",
		"pieces": "Steine", "twin": "Zwilling", "zeroposition": "NullStellung", "endproblem": "EndeProblem",
		"nextproblem": "WeiteresProblem", "LaTeXPieces": "LaTeXSteine", "InitialGameArray": "PartieAnfangsStellung",
		// options
		"Defence": "Widerlegung", "SetPlay": "Satzspiel", "WhiteToPlay": "WeissBeginnt", "Variations": "Varianten",
		"MoveNumbers": "Zugnummern", "StartMoveNumber": "StartZugnummer", "NoWk": "OhneWk", "NoBk": "OhneSk",
		"Threat": "Drohung", "NoThreat": "OhneDrohung", "Try": "Verfuehrung", "MaxSolutions": "MaxLoesungen",
		"MaxFlightsquares": "MaxFluchtFelder", "Search": "Suchen", "MultiSolutions": "MehrereLoesungen",
		"NoSymmetry": "KeineSymmetrie", "NonTrivial": "NichtTrivial", "KeepMatingPiece": "HalteMattsetzendenStein",
		"NoBoard": "OhneBrett", "NoShortVariations": "OhneKurzVarianten", "HalfDuplex": "HalbDuplex",
		"PostKeyPlay": "NachSchluessel", "MaxTime": "MaxZeit", "NoCastling": "KeineRochade",
		"StopOnShortSolutions": "StopNachKurzloesungen", "Beep": "Pieps", "SuppressGrid": "OhneGitter",
		"WriteGrid": "ZeichneGitter", "CastlingMutuallyExclusive": "RochadenGegenseitigAusschliessend",
		"GoalIsEnd": "ZielIstEnde", "NullMoves": "NullZuege", "UpToMoveNumber": "BisZugnummer",
		"TrivialTriesAvoid": "TrivialeFehlversucheUnterdruecken", "MatesIn1": "MattsIn1",
		// twinning
		"move": "versetze", "exchange": "tausche", "add": "hinzufuegen", "remove": "entferne", "continued": "ferner",
		"rotate": "Drehung", "PolishType": "Farbwechsel", "mirror": "Spiegelung", "shift": "Verschiebung",
		"substitute": "ersetze",
		// colours
		"white": "Weiss", "black": "Schwarz",
	}}
	french = &language{name: "French", begin: "DebutProbleme", pieces: "rdtfcp", words: map[string]string{
		"remark": "remarque", "author": "auteur", "origin": "source", "title": "titre", "award": "prix",
		"stipulation": "enonce", "sstipulation": "senonce", "twin": "jumeau", "endproblem": "FinProbleme",
		"nextproblem": "asuivre", "LaTeXPieces": "PiecesLaTeX", "InitialGameArray": "PositionInitialePartie",
		// options
		"Defence": "Defense", "SetPlay": "Apparent", "WhiteToPlay": "ApparentSeul", "Variations": "Variantes",
		"MoveNumbers": "Trace", "StartMoveNumber": "Enroute", "NoWk": "SansRB", "NoBk": "SansRN",
		"Threat": "Menace", "NoThreat": "SansMenace", "Try": "Essais", "MaxFlightsquares": "MaxCasesFuites",
		"NoSymmetry": "NonSymetrique", "KeepMatingPiece": "RetiensPieceMatante", "NoBoard": "SansEchiquier",
		"NoShortVariations": "SansVariantesCourtes", "HalfDuplex": "DemiDuplex", "PostKeyPlay": "ApresCle",
		"MaxTime": "MaxTemps", "NoCastling": "SansRoquer", "StopOnShortSolutions": "FinApresSolutionsCourtes",
		"Beep": "Bip", "SuppressGrid": "SansGrille", "WriteGrid": "AjouteGrille",
		"CastlingMutuallyExclusive": "RoquesMutuellementExclusifs", "GoalIsEnd": "ButEstFin",
		"NullMoves": "CoupsVides", "UpToMoveNumber": "JusquAuCoup", "TrivialTriesAvoid": "TrivialEssaiSupprimer",
		"MatesIn1": "MatsEn1",
		// twinning
		"move": "deplacement", "exchange": "echange", "add": "ajoute", "remove": "ote", "continued": "enplus",
		"PolishType": "CouleurEchange", "mirror": "miroir", "shift": "translation", "substitute": "remplace",
		// colours
		"white": "Blanc", "black": "Noir", "neutral": "Neutre",
	}}
	langs = []*language{english, german, french}
)

// langOf returns the language whose BeginProblem word begins with the
// file's first word (at least four letters of it), or nil.
func langOf(first string) *language {
	if len(first) < 4 {
		return nil
	}
	for _, l := range langs {
		if strings.HasPrefix(strings.ToLower(l.begin), strings.ToLower(first)) {
			return l
		}
	}
	return nil
}

// keyword is the package's keyword for the language: the English name
// among names that word stands for (any unambiguous prefix of this
// language's word for it).
func (l *language) keyword(word string, names []string) (string, error) {
	if len(l.words) == 0 {
		return keyword(word, names)
	}
	local := make([]string, len(names))
	for i, n := range names {
		local[i] = n
		if w, ok := l.words[n]; ok {
			local[i] = w
		}
	}
	w, err := keyword(word, local)
	if err != nil {
		return "", err
	}
	return names[slices.Index(local, w)], nil
}

// pieceType returns the piece type of one of the language's letters (in
// English S is the knight: N is Popeye's nightrider).
func (l *language) pieceType(c byte) (board.PieceType, bool) {
	i := strings.IndexByte(l.pieces, c|0x20)
	if i < 0 || c|0x20 < 'a' || c|0x20 > 'z' {
		return board.NoPieceType, false
	}
	return [...]board.PieceType{board.King, board.Queen, board.Rook, board.Bishop, board.Knight, board.Pawn}[i], true
}

// letters lists the language's orthodox men for messages ("K Q R B S P").
func (l *language) letters() string {
	return strings.Join(strings.Split(strings.ToUpper(l.pieces), ""), " ")
}

// Begins reports whether word, a file's first word, begins a Popeye
// problem file: BeginProblem, AnfangProblem or DebutProbleme, or at least
// four letters of one of them.
func Begins(word string) bool { return langOf(word) != nil }
