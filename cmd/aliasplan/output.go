package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// outputs stages the files a command writes: each is written in full to a
// temporary file beside its destination, and only when every one of them
// has been written are they renamed into place. On failure the temporary
// files are removed, so a failed run leaves no output file behind.
type outputs struct {
	staged []stagedFile
}

type stagedFile struct {
	tmp, dst string
}

// add writes one output through write into a temporary file.
func (o *outputs) add(dst string, write func(w io.Writer) error) error {
	dir, base := filepath.Split(dst)
	if dir == "" {
		dir = "."
	}
	if base == "" {
		return fmt.Errorf("%s: not a file name", dst)
	}
	if fi, err := os.Stat(dst); err == nil && fi.IsDir() {
		return fmt.Errorf("%s: is a directory", dst)
	}
	f, err := os.CreateTemp(dir, "."+base+".tmp*")
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) && errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("%s: cannot write: directory %s does not exist", dst, filepath.Clean(dir))
		}
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return fmt.Errorf("%s: cannot write: %v", dst, err)
	}
	o.staged = append(o.staged, stagedFile{tmp: f.Name(), dst: dst})
	bw := bufio.NewWriter(f)
	err = write(bw)
	if err == nil {
		err = bw.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("%s: writing: %w", dst, err)
	}
	return nil
}

// commit renames every staged file into place.
func (o *outputs) commit() error {
	for i, s := range o.staged {
		// Temporary files are 0600; outputs get the usual mode.
		if err := os.Chmod(s.tmp, 0o644); err != nil {
			o.staged = o.staged[i:]
			o.abort()
			return fmt.Errorf("%s: %v", s.dst, err)
		}
		if err := os.Rename(s.tmp, s.dst); err != nil {
			o.staged = o.staged[i:]
			o.abort()
			return fmt.Errorf("%s: cannot write: %v", s.dst, err)
		}
	}
	o.staged = nil
	return nil
}

// abort removes the staged files that were not committed.
func (o *outputs) abort() {
	for _, s := range o.staged {
		os.Remove(s.tmp)
	}
	o.staged = nil
}

// paths lists the destinations staged so far.
func (o *outputs) paths() []string {
	var p []string
	for _, s := range o.staged {
		p = append(p, s.dst)
	}
	return p
}
