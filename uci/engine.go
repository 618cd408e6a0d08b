package uci

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strings"
	"sync"

	"mateline.dev/mateline/board"
	"mateline.dev/mateline/solver"
)

// Config is what an engine starts with.
type Config struct {
	Name, Author string
	DefaultHash  int // MiB
	MaxHash      int // MiB; bounds the Hash option
	// OpenTables opens Syzygy tables from a SyzygyPath value (':'-separated
	// folders); warn hears of table files that turn out unusable. It may be
	// nil: the option is then refused.
	OpenTables func(path string, warn func(error)) (solver.Prober, io.Closer, error)
	// OpenBook opens a Polyglot book file, or the built-in default for "".
	// It may be nil: no book is used.
	OpenBook func(path string) (solver.Book, io.Closer, error)
	// OpenDTM opens the distance-to-mate tables of a directory: root
	// answers a covered root at once, search gives the nodes of a search
	// their exact scores; missing tables of at most build men are built on
	// first use; cacheMiB bounds the decompressed blocks kept for probes;
	// warn hears of builds and of files that cannot be used. It
	// may be nil: the DTMPath and DTMBuild options are then not offered.
	OpenDTM func(dir string, build, cacheMiB int, warn func(string)) (root, search solver.DTM, closer io.Closer, err error)
	// DTMDir is DTMPath's default (the tables' cache directory).
	DTMDir string
}

// Engine is one UCI session.
type Engine struct {
	cfg Config
	out *lineWriter
	set settings

	pos    board.Position
	posSet bool

	solver       *solver.Solver // made when first needed, of set.hash MiB
	prober       solver.Prober
	tablesCloser io.Closer
	book         solver.Book
	bookCloser   io.Closer
	dtm          dtmTables

	search *search // the running search, or nil
}

// lineWriter writes whole lines, one at a time, from any goroutine.
type lineWriter struct {
	mu sync.Mutex
	w  *bufio.Writer
}

func (lw *lineWriter) printf(format string, args ...any) {
	lw.mu.Lock()
	defer lw.mu.Unlock()
	fmt.Fprintf(lw.w, format, args...)
	lw.w.WriteByte('\n')
	lw.w.Flush()
}

// New returns an engine that writes to out.
func New(cfg Config, out io.Writer) *Engine {
	if cfg.DefaultHash <= 0 {
		cfg.DefaultHash = 64
	}
	if cfg.MaxHash < cfg.DefaultHash {
		cfg.MaxHash = cfg.DefaultHash
	}
	e := &Engine{cfg: cfg, out: &lineWriter{w: bufio.NewWriter(out)}}
	e.set = settings{hash: cfg.DefaultHash, threads: 1, multiPV: 1, proveShortest: true,
		dtmPath: cfg.DTMDir, dtmBuild: defaultDTMBuild, dtmCache: defaultDTMCache}
	e.pos = board.StartPosition()
	return e
}

// Run reads commands from in until quit or the end of the input, and
// answers on the engine's output. A search runs in its own goroutine, so
// isready, stop and quit are answered while it runs. Bad input never stops
// the engine: it gets an "info string" saying what was wrong.
func (e *Engine) Run(ctx context.Context, in io.Reader) error {
	defer e.close()
	if e.cfg.OpenBook != nil {
		if err := e.openBook(""); err != nil {
			e.info("no default book: %v", err)
		}
	}
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		if ctx.Err() != nil {
			break
		}
		if quit := e.Handle(sc.Text()); quit {
			return nil
		}
	}
	if err := sc.Err(); err != nil {
		e.stopSearch()
		return err
	}
	e.stopSearch()
	return nil
}

// Handle runs one command line and reports whether it was quit.
func (e *Engine) Handle(line string) (quit bool) {
	words := strings.Fields(line)
	if len(words) == 0 {
		return false // an empty line is no command
	}
	cmd, args := words[0], words[1:]
	switch cmd {
	case "uci":
		e.out.printf("id name %s", e.cfg.Name)
		e.out.printf("id author %s", e.cfg.Author)
		for _, o := range e.options() {
			e.out.printf("%s", o.announce())
		}
		e.out.printf("uciok")
	case "isready":
		if e.search == nil {
			e.ensureSolver() // the tables are made now, not in the next search
		}
		e.out.printf("readyok")
	case "debug":
		// accepted; mateline has nothing more to say in debug mode
	case "ucinewgame":
		e.stopSearch()
		if e.solver != nil {
			e.solver.Clear()
		}
	case "position":
		e.stopSearch()
		r := parsePosition(args)
		if r.ok {
			e.pos, e.posSet = r.pos, true
		}
		if r.err != "" {
			if r.ok {
				e.info("%s", r.err)
			} else {
				e.info("%s; the position stays %s", r.err, e.pos.FEN())
			}
		}
	case "go":
		e.stopSearch()
		e.startSearch(parseGo(args))
	case "stop":
		e.stopSearch()
	case "ponderhit":
		if e.search != nil {
			e.search.ponderHit()
		}
	case "setoption":
		e.stopSearch()
		if err := e.setOption(args); err != nil {
			e.info("%v", err)
		}
	case "d":
		for _, l := range strings.Split(strings.TrimRight(e.pos.Diagram(), "\n"), "\n") {
			e.out.printf("%s", l)
		}
	case "quit":
		e.stopSearch()
		return true
	default:
		e.info("unknown command: %s", truncate(line, 80))
	}
	return false
}

// info writes an "info string" line.
func (e *Engine) info(format string, args ...any) {
	msg := strings.ReplaceAll(fmt.Sprintf(format, args...), "\n", " ")
	e.out.printf("info string %s", msg)
}

// ensureSolver makes the solver if it is not there.
func (e *Engine) ensureSolver() *solver.Solver {
	if e.solver == nil {
		e.solver = solver.New(e.set.hash)
	}
	return e.solver
}

func (e *Engine) openTables(path string) error {
	if e.tablesCloser != nil {
		e.tablesCloser.Close()
	}
	e.prober, e.tablesCloser = nil, nil
	if path == "" {
		return nil
	}
	if e.cfg.OpenTables == nil {
		return fmt.Errorf("SyzygyPath: this build reads no tables")
	}
	p, c, err := e.cfg.OpenTables(path, func(err error) { e.info("%v; going on without it", err) })
	if err != nil {
		return fmt.Errorf("SyzygyPath %s: %v", path, err)
	}
	e.prober, e.tablesCloser = p, c
	return nil
}

func (e *Engine) openBook(path string) error {
	if e.bookCloser != nil {
		e.bookCloser.Close()
	}
	e.book, e.bookCloser = nil, nil
	if e.cfg.OpenBook == nil {
		return nil
	}
	b, c, err := e.cfg.OpenBook(path)
	if err != nil {
		if path != "" {
			// A book that cannot be read falls back to the default.
			if b, c, err2 := e.cfg.OpenBook(""); err2 == nil {
				e.book, e.bookCloser = b, c
			}
		}
		return fmt.Errorf("BookFile %s: %v", path, err)
	}
	e.book, e.bookCloser = b, c
	return nil
}

func (e *Engine) close() {
	e.stopSearch()
	if e.tablesCloser != nil {
		e.tablesCloser.Close()
	}
	if e.bookCloser != nil {
		e.bookCloser.Close()
	}
	e.dtm.close()
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}
