package serve

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"runtime"
	"strings"
	"time"

	"mateline.dev/mateline/board"
)

// Config is what a server answers from and how much work it takes on.
type Config struct {
	Tables Tables
	// Solve runs the mate searches of /solve (nil: /solve answers 404).
	Solve *SolvePool
	// Probes bounds the /standard requests answered at once (0: four per
	// core); the others wait their turn.
	Probes int
	// Version names the build, for the page.
	Version string
}

// Server answers the HTTP API and the page.
type Server struct {
	cfg    Config
	probes chan struct{}
	mux    *http.ServeMux
}

// maxFEN bounds a FEN (a real one is under 100 bytes).
const maxFEN = 256

// New returns a server.
func New(cfg Config) *Server {
	if cfg.Probes <= 0 {
		cfg.Probes = 4 * runtime.NumCPU()
	}
	s := &Server{cfg: cfg, probes: make(chan struct{}, cfg.Probes), mux: http.NewServeMux()}
	s.mux.HandleFunc("GET /standard", s.handleStandard)
	s.mux.HandleFunc("GET /standard/mainline", s.handleMainline)
	s.mux.HandleFunc("GET /solve", s.handleSolve)
	s.mux.HandleFunc("GET /{$}", s.handlePage)
	s.mux.Handle("GET /assets/", http.StripPrefix("/assets/", assetHandler()))
	return s
}

// ServeHTTP answers a request.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.mux.ServeHTTP(w, r) }

// HTTPServer wraps a server in an http.Server with the limits a server
// on a network wants: header and body timeouts, a header size bound, and
// a write timeout that leaves room for the longest search.
func HTTPServer(addr string, h http.Handler, maxSolve time.Duration) *http.Server {
	return &http.Server{
		Addr:              addr,
		Handler:           h,
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       10 * time.Second,
		WriteTimeout:      maxSolve + 30*time.Second,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    32 << 10,
	}
}

// apiError is an error answer: its status and what it says.
type apiError struct {
	status int
	msg    string
}

func (e apiError) Error() string { return e.msg }

// writeJSON writes v as the answer.
func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Access-Control-Allow-Origin", "*")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.Encode(v)
}

// writeError writes an error answer with a JSON body that says why.
func writeError(w http.ResponseWriter, err error) {
	status := http.StatusInternalServerError
	var ae apiError
	var nt errNotInTables
	switch {
	case errors.As(err, &ae):
		status = ae.status
	case errors.As(err, &nt):
		status = http.StatusNotFound
		if nt.moves != nil {
			writeJSON(w, status, struct {
				Error string     `json:"error"`
				Moves []MoveInfo `json:"moves"`
			}{err.Error(), nt.moves})
			return
		}
	}
	writeJSON(w, status, map[string]string{"error": err.Error()})
}

// position reads the fen parameter: underscores for spaces, plain ASCII,
// a legal position (castling rights and an en-passant square the position
// cannot have are dropped, as lila-tablebase does).
func position(r *http.Request) (board.Position, error) {
	fen := r.URL.Query().Get("fen")
	switch {
	case fen == "":
		return board.Position{}, apiError{http.StatusBadRequest, "missing fen parameter"}
	case len(fen) > maxFEN:
		return board.Position{}, apiError{http.StatusBadRequest, fmt.Sprintf("fen of %d bytes: a FEN is at most %d", len(fen), maxFEN)}
	}
	fen = strings.ReplaceAll(fen, "_", " ")
	pos, _, err := board.ParseFENLenient(fen)
	if err != nil {
		return board.Position{}, apiError{http.StatusBadRequest, fmt.Sprintf("invalid fen: %v", err)}
	}
	return pos, nil
}

// acquire waits for a turn to probe, or for the client to go away.
func (s *Server) acquire(ctx context.Context) bool {
	select {
	case s.probes <- struct{}{}:
		return true
	case <-ctx.Done():
		return false
	}
}

func (s *Server) release() { <-s.probes }

func (s *Server) handleStandard(w http.ResponseWriter, r *http.Request) {
	pos, err := position(r)
	if err != nil {
		writeError(w, err)
		return
	}
	if !s.acquire(r.Context()) {
		return
	}
	defer s.release()
	p, err := s.cfg.Tables.Standard(&pos)
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, p)
}

func (s *Server) handleMainline(w http.ResponseWriter, r *http.Request) {
	pos, err := position(r)
	if err != nil {
		writeError(w, err)
		return
	}
	if !s.acquire(r.Context()) {
		return
	}
	defer s.release()
	ml, err := s.cfg.Tables.Mainline(pos)
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, ml)
}
