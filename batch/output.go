package batch

import (
	"path/filepath"
	"syscall"

	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
)

// partialSuffix names the file that results are written to before it is
// renamed over the output: FILE.partial beside FILE.
const partialSuffix = ".partial"

// outputFile is a results file written safely: into FILE.partial in the same
// folder, renamed over FILE by Commit. A crash leaves FILE as it was (and
// the .partial file, which --resume picks up when it holds all of FILE).
type outputFile struct {
	path    string
	partial string
	f       *os.File
}

// errSameFile is an output that is also an input.
var errSameFile = errors.New("the output is also an input")

// checkNotInput refuses an output that is one of the inputs: the same file
// by name, hard link or symbolic link. A missing output is fine.
func checkNotInput(output string, inputs []string) error {
	if output == "" || output == "-" {
		return nil
	}
	ost, err := os.Stat(output)
	if err != nil {
		return nil // not there yet: it cannot be an input
	}
	for _, in := range inputs {
		if in == "-" {
			continue
		}
		ist, err := os.Stat(in)
		if err == nil && os.SameFile(ost, ist) {
			return fmt.Errorf("%w: %s is %s", errSameFile, output, in)
		}
	}
	return nil
}

// createOutput opens FILE.partial for the results. With resume, it starts
// as a copy of the results done so far: FILE, or FILE.partial when a crash
// left one that holds all of FILE and more. It returns the source of the
// earlier results ("" for none) in Output.From.
func createOutput(path string, resume bool) (*outputFile, error) {
	o := &outputFile{path: path, partial: path + partialSuffix}
	if !resume {
		f, err := os.Create(o.partial)
		if err != nil {
			return nil, err
		}
		o.f = f
		return o, nil
	}
	source, err := resumeSource(path, o.partial)
	if err != nil {
		return nil, err
	}
	switch source {
	case "":
		f, err := os.Create(o.partial)
		if err != nil {
			return nil, err
		}
		o.f = f
	case o.partial:
		f, err := os.OpenFile(o.partial, os.O_RDWR, 0)
		if err != nil {
			return nil, err
		}
		if _, err := f.Seek(0, io.SeekEnd); err != nil {
			f.Close()
			return nil, err
		}
		o.f = f
	default:
		f, err := os.Create(o.partial)
		if err != nil {
			return nil, err
		}
		src, err := os.Open(source)
		if err == nil {
			_, err = io.Copy(f, src)
			src.Close()
		}
		if err != nil {
			f.Close()
			os.Remove(o.partial)
			return nil, err
		}
		o.f = f
	}
	return o, nil
}

// resumeSource picks the file holding the results done so far: FILE.partial
// when it holds all of FILE (a crash after copying), else FILE, else none.
func resumeSource(path, partial string) (string, error) {
	_, errF := os.Stat(path)
	_, errP := os.Stat(partial)
	switch {
	case errP != nil && errF != nil:
		return "", nil
	case errP != nil:
		return path, nil
	case errF != nil:
		return partial, nil
	}
	ok, err := hasPrefix(partial, path)
	if err != nil {
		return "", err
	}
	if ok {
		return partial, nil
	}
	return path, nil
}

// hasPrefix reports whether the file long starts with all of file short.
func hasPrefix(long, short string) (bool, error) {
	lf, err := os.Open(long)
	if err != nil {
		return false, err
	}
	defer lf.Close()
	sf, err := os.Open(short)
	if err != nil {
		return false, err
	}
	defer sf.Close()
	lr, sr := bufio.NewReader(lf), bufio.NewReader(sf)
	lb, sb := make([]byte, 64<<10), make([]byte, 64<<10)
	for {
		n, err := io.ReadFull(sr, sb)
		if n > 0 {
			if _, lerr := io.ReadFull(lr, lb[:n]); lerr != nil || !bytes.Equal(lb[:n], sb[:n]) {
				return false, nil
			}
		}
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return true, nil
		}
		if err != nil {
			return false, err
		}
	}
}

// File is the open partial file, for PrepareResume.
func (o *outputFile) File() *os.File { return o.f }

// Path is the output's final name.
func (o *outputFile) Path() string { return o.path }

func (o *outputFile) Write(p []byte) (int, error) { return o.f.Write(p) }

// Sync writes what the partial file holds to disk.
func (o *outputFile) Sync() error { return o.f.Sync() }

// Commit makes the results the output: the partial file is synced, closed
// and renamed over FILE, and the folder synced, so that the new name
// survives a crash too.
func (o *outputFile) Commit() error {
	if err := o.f.Sync(); err != nil {
		o.f.Close()
		return err
	}
	if err := o.f.Close(); err != nil {
		return err
	}
	if err := os.Rename(o.partial, o.path); err != nil {
		return err
	}
	return syncDir(filepath.Dir(o.path))
}

// syncDir syncs a folder, so that a file renamed into it stays renamed
// after a crash. Systems that cannot sync a folder are left alone.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return nil
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, syscall.EINVAL) && !errors.Is(err, syscall.ENOTSUP) {
		return err
	}
	return nil
}

// Abort closes and removes the partial file, leaving FILE as it was.
func (o *outputFile) Abort() {
	o.f.Close()
	os.Remove(o.partial)
}
