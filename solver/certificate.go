package solver

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"mateline.dev/mateline/board"
	"mateline.dev/mateline/problem"
)

// Proof certificates: docs/certificate.md defines the format. The writer
// reads the proof off the tables the solve left (the proof tree of
// prooftree.go), and the lower bound off the refutations the iterations
// found, asking the search again only where the tables forgot.

// DefaultRefutationLimit bounds the refutation tree written for the lower
// bound (--proof-limit), in nodes: attacker positions and their moves.
const DefaultRefutationLimit = 1_000_000

// CertificateStats says what a certificate holds.
type CertificateStats struct {
	Nodes       int    // proof nodes: attacker positions of the upper bound
	Refutations int    // refute and hold records of the lower bound
	LowerBound  string // "certified", "depth", "not certified", "from tables" or "none"
	Reason      string // why the lower bound is not certified
	TreeNodes   int    // nodes of the refutation tree examined
}

// Lower-bound states in a certificate's trailer.
const (
	LowerCertified    = "certified"
	LowerNotCertified = "not certified"
	// LowerFromTables: no refutation tree within the limit, but the
	// distance-to-mate tables (Options.DTM) say the mate is shortest.
	LowerFromTables = "from tables"
	LowerNone       = "none"
	// LowerDepth: the refutations prove no mate within fewer plies than a
	// shortest mate needs: the lower bound a limit left (Result.Depth),
	// when it came before the mate was proved shortest.
	LowerDepth = "depth"
)

// certHeader, certNode, certRefute, certHold and certEnd are the records.
type certHeader struct {
	Format   string `json:"format"`
	Version  int    `json:"version"`
	FEN      string `json:"fen"`
	Mate     int    `json:"mate"`
	Attacker string `json:"attacker"`
}

type certNode struct {
	Node string `json:"node"`
	Move string `json:"move"`
}

type certRefute struct {
	Refute  string            `json:"refute"`
	Plies   int               `json:"plies"`
	Replies map[string]string `json:"replies"`
}

type certHold struct {
	Hold  string `json:"hold"`
	Plies int    `json:"plies"`
	Reply string `json:"reply"`
}

type certEnd struct {
	End certEndBody `json:"end"`
}

type certEndBody struct {
	Nodes       int    `json:"nodes"`
	Refutations int    `json:"refutations"`
	LowerBound  string `json:"lower_bound"`
	LowerPlies  int    `json:"lower_bound_plies,omitempty"`
	Reason      string `json:"reason,omitempty"`
}

// CertificateKey is the position key of a certificate: the first four FEN
// fields, the en-passant field a square only when an en-passant capture is
// legal.
func CertificateKey(pos *board.Position) string {
	f := strings.Fields(pos.FEN())
	ep := "-"
	if pos.EnPassant() != board.NoSquare {
		var l board.MoveList
		pos.LegalMoves(&l)
		for _, m := range l.Slice() {
			if m.IsEnPassant() {
				ep = f[3]
				break
			}
		}
	}
	return f[0] + " " + f[1] + " " + f[2] + " " + ep
}

// WriteCertificate writes a proof certificate that mate (signed moves, as
// in Result.Mate) is forced from pos. Call it after the Solve that proved
// the mate, with the same options: it reads that solve's tables. lower is the lower bound the solve proved, in moves: no mate in
// lower moves or fewer (|mate|-1 when it proved the mate shortest): the
// refutations that prove it are written when their tree has at most
// refutationLimit nodes. ctx, opt.Timeout and opt.Nodes bound it: a limit
// that cuts the refutations short leaves the lower bound not certified,
// one that cuts the proof of the mate is an error.
func (sv *Solver) WriteCertificate(ctx context.Context, pos board.Position, mate problem.Mate, lower int, opt Options, refutationLimit int, w io.Writer) (CertificateStats, error) {
	var stats CertificateStats
	if mate == 0 {
		return stats, errors.New("no mate to certify")
	}
	if opt.Rule50 {
		return stats, errors.New("certificates follow the problem convention: not with the 50-move rule")
	}
	opt = withoutTables(opt)
	// The DTM tables, when given, choose the attacker's moves of the proof
	// and help the searches; the proof itself stays checkable without them.
	s := sv.threads(1, &env{tt: sv.tt, pn: sv.pn, prober: opt.Prober, dtm: opt.DTM, lim: limitsOf(ctx, opt), salt: sv.salt, cuts: shortcutsFor(opt)})[0]
	attacker, plies := mate.Winner(pos.Side()), mate.Plies()
	t := sv.retained(pos, mate)
	if t == nil {
		t = newProofTree(s, attacker, 4*proofTreeNodes)
		if _, err := t.prove(&pos, plies); err != nil {
			return stats, fmt.Errorf("the proof could not be read back: %w", err)
		}
	}
	if d := t.finalDepths(pos)[s.ttKey(&pos)]; d > plies {
		return stats, fmt.Errorf("the proof read back needs %d plies, more than %d", d, plies)
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(certHeader{Format: "mateline-proof", Version: 1, FEN: pos.FEN(), Mate: int(mate), Attacker: attacker.String()}); err != nil {
		return stats, err
	}
	n, err := t.writeNodes(pos, enc)
	stats.Nodes = n
	if err != nil {
		return stats, err
	}

	end := certEndBody{Nodes: n, LowerBound: LowerNone}
	shortest := lower >= mate.Moves()-1
	switch {
	case mate.Moves() == 1:
	case lower <= 0:
		end.LowerBound, end.Reason = LowerNotCertified, "the shortness of the mate was not proved"
	default:
		lb := newRefutationTree(s, attacker, refutationLimit)
		refuted := mate // the mates shorter than it are refuted
		if !shortest {
			refuted = problem.Mate(lower + 1)
			if mate < 0 {
				refuted = -refuted
			}
		}
		spooled, err := lb.build(pos, refuted)
		stats.TreeNodes = lb.nodes
		switch {
		case err == nil:
			end.LowerBound, end.LowerPlies = LowerCertified, lb.rootPlies
			if !shortest {
				end.LowerBound = LowerDepth
			}
			end.Refutations = lb.records
			if _, err := spooled.Seek(0, io.SeekStart); err != nil {
				return stats, err
			}
			if _, err := io.Copy(bw, spooled); err != nil {
				return stats, err
			}
		case errors.Is(err, errTreeTooBig):
			end.LowerBound = LowerNotCertified
			end.Reason = fmt.Sprintf("the refutation tree is over %d nodes (--proof-limit)", refutationLimit)
		default:
			end.LowerBound, end.Reason = LowerNotCertified, err.Error()
		}
		if end.LowerBound == LowerNotCertified && tablesSay(opt.DTM, &pos, mate) {
			end.LowerBound = LowerFromTables
			end.Reason += "; the distance-to-mate tables give the mate as shortest"
		}
		if spooled != nil {
			spooled.Close()
		}
	}
	stats.Refutations, stats.LowerBound, stats.Reason = end.Refutations, end.LowerBound, end.Reason
	if err := enc.Encode(certEnd{End: end}); err != nil {
		return stats, err
	}
	return stats, bw.Flush()
}

// tablesSay reports whether the DTM tables give pos exactly mate.
func tablesSay(t DTM, pos *board.Position, mate problem.Mate) bool {
	if t == nil || !dtmCovers(pos) {
		return false
	}
	m, ok := t.ProbeDTM(pos)
	return ok && problem.Mate(m) == mate
}

// writeNodes writes one node per attacker position the tree reaches from
// pos, and returns how many.
func (t *proofTree) writeNodes(pos board.Position, enc *json.Encoder) (int, error) {
	seen := map[uint64]bool{}
	count := 0
	var walk func(pos *board.Position) error
	walk = func(pos *board.Position) error {
		k := t.s.ttKey(pos)
		if seen[k] {
			return nil
		}
		seen[k] = true
		if pos.Side() == t.attacker {
			n, ok := t.nodes[k]
			if !ok {
				return fmt.Errorf("the proof has no move for %s", pos.FEN())
			}
			if err := enc.Encode(certNode{Node: CertificateKey(pos), Move: n.move.UCI()}); err != nil {
				return err
			}
			count++
			child := *pos
			child.Play(n.move)
			if child.IsCheckmate() {
				return nil
			}
			return walk(&child)
		}
		var l board.MoveList
		pos.LegalMoves(&l)
		for _, m := range l.Slice() {
			child := *pos
			child.Play(m)
			if err := walk(&child); err != nil {
				return err
			}
		}
		return nil
	}
	return count, walk(&pos)
}

// refutationTree writes the lower bound: for every attacker move at every
// attacker position, a defender reply after which the attacker still has
// no mate in time.
type refutationTree struct {
	s         *searcher
	attacker  board.Color
	limit     int
	nodes     int
	records   int
	rootPlies int
	refuted   map[uint64]int // positions refuted, with the most plies refuted
	enc       *json.Encoder
	spool     *os.File
	buf       *bufio.Writer
}

func newRefutationTree(s *searcher, attacker board.Color, limit int) *refutationTree {
	return &refutationTree{s: s, attacker: attacker, limit: limit, refuted: map[uint64]int{}}
}

// build refutes every mate shorter than mate from pos, into a spool file
// returned open (the caller closes it).
func (r *refutationTree) build(pos board.Position, mate problem.Mate) (*os.File, error) {
	f, err := os.CreateTemp("", "mateline-refutations-*.jsonl")
	if err != nil {
		return nil, err
	}
	os.Remove(f.Name()) // the open file stays usable
	r.spool, r.buf = f, bufio.NewWriterSize(f, 64<<10)
	r.enc = json.NewEncoder(r.buf)
	r.enc.SetEscapeHTML(false)
	r.rootPlies = mate.Shorter().Plies()
	if mate > 0 {
		err = r.refute(&pos, r.rootPlies)
	} else {
		err = r.hold(&pos, r.rootPlies)
	}
	if err == nil {
		err = r.buf.Flush()
	}
	return f, err
}

// hold finds the root defence of a mated-in-N position that keeps the
// attacker from mating within plies (even).
func (r *refutationTree) hold(pos *board.Position, plies int) error {
	var l board.MoveList
	pos.LegalMoves(&l)
	for _, m := range r.s.tableFirst(pos, l.Slice()) {
		child := *pos
		child.Play(m)
		mates, ok := r.s.matesWithin(&child, plies-1)
		if !ok {
			return errNotProved
		}
		if mates {
			continue
		}
		if err := r.refute(&child, plies-1); err != nil {
			return err
		}
		r.records++
		return r.enc.Encode(certHold{Hold: CertificateKey(pos), Plies: plies, Reply: m.UCI()})
	}
	return fmt.Errorf("no defence of %s holds out %d plies", pos.FEN(), plies)
}

// refute proves that the attacker, to move in pos, has no mate within
// plies (odd), writing a refute record for each position that needs one.
func (r *refutationTree) refute(pos *board.Position, plies int) error {
	k := r.s.ttKey(pos)
	if r.refuted[k] >= plies {
		return nil
	}
	var l board.MoveList
	pos.LegalMoves(&l)
	r.nodes += 1 + l.N
	if r.nodes > r.limit {
		return errTreeTooBig
	}
	replies := map[string]string{}
	for _, m := range l.Slice() {
		child := *pos
		child.Play(m)
		var dl board.MoveList
		child.LegalMoves(&dl)
		if dl.N == 0 {
			if child.InCheck() {
				return fmt.Errorf("%s mates in %s: no refutation", m.UCI(), pos.FEN())
			}
			continue // stalemate: no mate
		}
		if plies < 3 {
			continue
		}
		reply, err := r.refutation(&child, dl.Slice(), plies-2)
		if err != nil {
			return err
		}
		replies[m.UCI()] = reply.UCI()
		next := child
		next.Play(reply)
		if err := r.refute(&next, plies-2); err != nil {
			return err
		}
	}
	r.refuted[k] = plies
	if plies < 3 {
		return nil // the checker tries every move itself
	}
	r.records++
	return r.enc.Encode(certRefute{Refute: CertificateKey(pos), Plies: plies, Replies: replies})
}

// refutation finds a reply of the defender, to move in pos, after which
// the attacker has no mate within plies: the table's move first, which the
// iterations found.
func (r *refutationTree) refutation(pos *board.Position, replies []board.Move, plies int) (board.Move, error) {
	for _, m := range r.s.tableFirst(pos, replies) {
		child := *pos
		child.Play(m)
		mates, ok := r.s.matesWithin(&child, plies)
		if !ok {
			return board.NoMove, errNotProved
		}
		if !mates {
			return m, nil
		}
	}
	return board.NoMove, fmt.Errorf("no reply refutes mate within %d plies in %s", plies+1, pos.FEN())
}

// retained is the proof tree that the last solve read its mate off, when
// it proves mate from pos: the tree the certificate writes, with the root's
// move added (the tree holds the positions after it). nil when it does
// not match or the solve kept none: the certificate then reads the proof
// off the tables again.
func (sv *Solver) retained(pos board.Position, mate problem.Mate) *proofTree {
	p := sv.proof
	if p.tree == nil || p.root.Key() != pos.Key() || p.mate != mate || len(p.line) != mate.Plies() {
		return nil
	}
	t := p.tree
	if pos.Side() == t.attacker {
		t.nodes[t.s.ttKey(&pos)] = proofNode{depth: int16(len(p.line)), move: p.line[0]}
	}
	return t
}
