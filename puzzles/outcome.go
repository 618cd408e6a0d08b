package puzzles

import (
	"mateline.dev/mateline/board"
	"mateline.dev/mateline/problem"
	"mateline.dev/mateline/record"
	"mateline.dev/mateline/solver"
)

// Status is what a record's search ended with, as the JSON record's
// "status" field names it.
type Status string

// The statuses (docs/formats.md).
const (
	StatusMate Status = "mate" // a mate proved, and proved shortest
	// StatusNoMate: proved that no mate (of the kind asked for) exists at
	// any length: no legal move, no material to mate, or the tables say
	// so.
	StatusNoMate Status = "no-mate"
	// StatusCapped: proved that no mate exists in Depth moves or fewer,
	// the longest looked for (--mate, the claim, a problem's
	// stipulation); longer ones were not looked for.
	StatusCapped  Status = "capped"
	StatusLimit   Status = "limit"   // a limit stopped the proof: nothing claimed beyond Depth but MateWithin
	StatusError   Status = "error"   // the record could not be searched
	StatusSkipped Status = "skipped" // validate: nothing to check
)

// Statuses lists every status in report order.
var Statuses = []Status{StatusMate, StatusLimit, StatusCapped, StatusNoMate, StatusError, StatusSkipped}

// statusOf is the status of a solver result.
func statusOf(s solver.Status) Status {
	switch s {
	case solver.StatusMate:
		return StatusMate
	case solver.StatusNoMate:
		return StatusNoMate
	case solver.StatusCapped:
		return StatusCapped
	}
	return StatusLimit
}

// Outcome is the record written for one input record: the JSON Lines
// record of docs/formats.md, and nothing else. Every field comes from
// proofs that finished (docs/architecture.md, "What a record says"); how
// its moves are written is its Notation's, the input it answers and
// whether a signal stopped it are its Answer's.
type Outcome struct {
	ID     string       `json:"id"`
	Line   int          `json:"line"`
	FEN    string       `json:"fen"`
	Status Status       `json:"status"`
	Mate   problem.Mate `json:"mate,omitempty"`
	// MateWithin is a forced mate proved before a limit stopped the proof
	// that none is shorter: at most this many moves (signed like Mate);
	// PV is then a line of exactly its plies, ending in mate.
	MateWithin problem.Mate `json:"mate_within,omitempty"`
	Keys       []string     `json:"keys,omitempty"`
	// AllKeys says Keys is every key (--all, validate), not one of them.
	AllKeys bool     `json:"all_keys,omitempty"`
	PV      []string `json:"pv,omitempty"`
	PVSAN   []string `json:"pv_san,omitempty"`
	// PVFromProof says PV is the proof's line of a mate proved shortest:
	// of the full length and ending in mate, but a defence of it not
	// shown to hold out longest (that check ran out of its budget).
	PVFromProof bool     `json:"pv_from_proof,omitempty"`
	Depth       int      `json:"depth"`
	Partial     bool     `json:"partial,omitempty"` // a limit cut keys or line short after the proof
	Nodes       uint64   `json:"nodes"`
	MS          float64  `json:"ms"`
	TBHits      uint64   `json:"tb_hits"`
	Book        []string `json:"book,omitempty"`
	Verdict     Verdict  `json:"verdict,omitempty"`
	// Cut, with the verdict timeout, says which part of the check the
	// limit cut: the length, the keys, or the solution's line.
	Cut      Cut       `json:"cut,omitempty"`
	Expected *Expected `json:"expected,omitempty"`
	Error    string    `json:"error,omitempty"`
	// Note says why a record was not searched: a stalemate, a side
	// already checkmated, or (validate) why it was skipped.
	Note string `json:"note,omitempty"`
	// Warnings name problems of the input line that did not stop the
	// search, such as a malformed annotation.
	Warnings []string `json:"warnings,omitempty"`
	// Proof, with --proof or --proof-dir, is the certificate written.
	Proof *ProofInfo `json:"proof,omitempty"`
	// Tree, with --tree, is the solution tree.
	Tree *Tree `json:"tree,omitempty"`
	// Stipulation names a helpmate's or selfmate's aim ("h#2", "s#3");
	// Problem is what its problem file said of it.
	Stipulation string          `json:"stipulation,omitempty"`
	Problem     *record.Problem `json:"problem,omitempty"`
	// PGN is what a PGN game said besides its position: its number in
	// the file, Event, Site, White, Black, where its claim was read.
	PGN *record.PGNInfo `json:"pgn,omitempty"`
	// Solutions are every solution of a helpmate, as UCI moves.
	Solutions [][]string `json:"solutions,omitempty"`
	// Shorter is the shortest solution when it is shorter than the
	// stipulation.
	Shorter *Shorter `json:"shorter,omitempty"`
	// SetPlay and Tries answer Popeye's options SetPlay and Try.
	SetPlay *SetPlay  `json:"set_play,omitempty"`
	Tries   []TryInfo `json:"tries,omitempty"`
	// SolutionCount, when not 0, is the number of solutions when it is
	// not the number of lines (a reciprocal helpmate's two endings, the
	// other side's forced last moves or its parries make one solution).
	SolutionCount int `json:"solution_count,omitempty"`
	// TTProbes and TTHits count the table's probes and hits, beside
	// nodes and tb_hits.
	TTProbes uint64 `json:"tt_probes,omitempty"`
	TTHits   uint64 `json:"tt_hits,omitempty"`
}

// Notation is how the text writers print an outcome's moves: SAN, and a
// problem's moves in Popeye's notation (or SAN). It is written from the
// outcome's own moves, so it says nothing the outcome does not.
type Notation struct {
	KeysSAN []string
	LineSAN string // the numbered SAN main line
	// KeysText are a problem's keys as its text report writes them.
	KeysText []string
	// SolutionText is each solution as the text report prints it,
	// SetPlayText a helpmate's set play, ShorterText the shorter
	// solutions (or keys).
	SolutionText, SetPlayText, ShorterText []string
	// TreeLong says the tree (and a selfmate's set play) is printed in
	// Popeye's long notation, not SAN.
	TreeLong bool
}

// Answer is what answering one record gives: the outcome written, its
// notation, the record it answers, and whether cancellation stopped it.
type Answer struct {
	Outcome
	Notation
	// Input is the record answered.
	Input *record.Record
	// Interrupted says a signal stopped the search: the outcome holds
	// what was proved, but it is no result and is not written (--resume
	// does it again).
	Interrupted bool
}

// Source is where the answered record came from ("" when unknown).
func (a *Answer) Source() string {
	if a.Input == nil {
		return ""
	}
	return a.Input.Source
}

// Expected is the claim that validate checked.
type Expected struct {
	Mate problem.Mate `json:"mate,omitempty"`
	Keys []string     `json:"keys,omitempty"`
	Line []string     `json:"line,omitempty"` // a helpmate's solution
}

// NewAnswer describes the solver's result for rec: the one place where a
// record is built from a result.
func NewAnswer(rec *record.Record, res solver.Result) Answer {
	o := Answer{Outcome: Outcome{ID: rec.ID, Line: rec.Line, FEN: rec.FEN, Warnings: rec.Warnings, PGN: rec.PGN}, Input: rec}
	if rec.Err != nil {
		o.Status, o.Error = StatusError, rec.Err.Error()
		return o
	}
	o.Status = statusOf(res.Status)
	o.Mate = res.Mate
	if o.Status == StatusLimit {
		o.MateWithin = res.MateWithin
	}
	o.Depth = res.Depth
	o.Partial = res.Partial
	o.PVFromProof = res.ProofLine && len(res.PV) > 0
	o.AllKeys = res.AllKeys && len(res.Keys) > 0
	o.Nodes, o.TBHits = res.Nodes, res.TBHits
	o.MS = float64(res.Elapsed.Microseconds()) / 1000
	o.TTProbes, o.TTHits = res.TTProbe, res.TTHits
	for _, m := range res.Keys {
		o.Keys = append(o.Keys, m.UCI())
		o.KeysSAN = append(o.KeysSAN, rec.Pos.SAN(m))
	}
	for _, m := range res.Book {
		o.Book = append(o.Book, m.UCI())
	}
	pos := rec.Pos
	for _, m := range res.PV {
		o.PV = append(o.PV, m.UCI())
		o.PVSAN = append(o.PVSAN, pos.SAN(m))
		pos.Play(m)
	}
	o.LineSAN = rec.Pos.SANLine(res.PV)
	return o
}

// ProofInfo says where a record's certificate is and what it certifies.
type ProofInfo struct {
	File        string `json:"file"`
	Nodes       int    `json:"nodes"`
	LowerBound  string `json:"lower_bound"`
	Refutations int    `json:"refutations,omitempty"`
	Reason      string `json:"reason,omitempty"`
}

// Lichess returns the Lichess row's details, or nil for another record.
func (a *Answer) Lichess() *record.LichessInfo {
	if a.Input == nil {
		return nil
	}
	return a.Input.Lichess
}

// uciMoves returns the UCI text of moves.
func uciMoves(ms []board.Move) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.UCI()
	}
	return out
}

// Count is the number of solutions of a problem solved by its lines:
// SolutionCount when lines and solutions differ, else len(Solutions).
func (o *Outcome) Count() int {
	if o.SolutionCount > 0 {
		return o.SolutionCount
	}
	return len(o.Solutions)
}
