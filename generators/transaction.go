package generators

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// transaction is one Output.Write: the files it replaces, creates or
// removes, and what it did so far, so that a failure can undo it all. It
// is used by one goroutine.
type transaction struct {
	// rename is os.Rename unless a test injects failures.
	rename  func(from, to string) error
	changes []*change
	// createdDirs are the folders created, outermost first.
	createdDirs []string
	// reserved are backup names created but not used yet.
	reserved []string
}

// change is one file a transaction replaces, creates or removes.
type change struct {
	dst    string
	tmp    string // new content, "" for a removal
	backup string // where the previous file was moved, "" if none yet
	placed bool   // tmp was moved to dst
}

func newTransaction(rename func(from, to string) error) *transaction {
	if rename == nil {
		rename = os.Rename
	}
	return &transaction{rename: rename}
}

// stage writes the content files has for each of paths to a temporary
// file next to it.
func (tx *transaction) stage(paths []string, files map[string][]byte) error {
	for _, p := range paths {
		c := &change{dst: p}
		tx.changes = append(tx.changes, c)
		if err := tx.writeTemp(c, files[p]); err != nil {
			return fmt.Errorf("writing %s: %w", p, err)
		}
	}
	return nil
}

// writeTemp writes content to a new temporary file beside c.dst, creating
// its folder when needed.
func (tx *transaction) writeTemp(c *change, content []byte) error {
	dir := filepath.Dir(c.dst)
	created, err := mkdirAll(dir)
	tx.createdDirs = append(tx.createdDirs, created...)
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(c.dst)+".tmp-*")
	if err != nil {
		return err
	}
	c.tmp = tmp.Name()
	_, werr := tmp.Write(content)
	cerr := tmp.Close()
	return errors.Join(werr, cerr, os.Chmod(tmp.Name(), 0o644))
}

// remove adds the removal of paths to the transaction.
func (tx *transaction) remove(paths []string) {
	for _, p := range paths {
		tx.changes = append(tx.changes, &change{dst: p})
	}
}

// swap moves every previous file aside and every new one into place.
func (tx *transaction) swap() error {
	for _, c := range tx.changes {
		if _, err := os.Lstat(c.dst); err == nil {
			if err := tx.moveAside(c); err != nil {
				return fmt.Errorf("moving %s aside: %w", c.dst, err)
			}
		}
		if c.tmp != "" {
			if err := tx.rename(c.tmp, c.dst); err != nil {
				return fmt.Errorf("moving %s into place: %w", c.dst, err)
			}
			c.placed = true
		}
	}
	return nil
}

// moveAside renames c.dst to a new backup name beside it.
func (tx *transaction) moveAside(c *change) error {
	f, err := os.CreateTemp(filepath.Dir(c.dst), "."+filepath.Base(c.dst)+".old-*")
	if err != nil {
		return err
	}
	f.Close()
	tx.reserved = append(tx.reserved, f.Name())
	if err := tx.rename(c.dst, f.Name()); err != nil {
		return err
	}
	tx.reserved = tx.reserved[:len(tx.reserved)-1]
	c.backup = f.Name()
	return nil
}

// commit drops the previous files, and the folders removals left empty
// below roots.
func (tx *transaction) commit(roots []string) error {
	var errs []error
	for _, c := range tx.changes {
		if c.backup != "" {
			if err := os.Remove(c.backup); err != nil {
				errs = append(errs, err)
			}
		}
		if c.tmp == "" {
			removeEmptyParents(filepath.Dir(c.dst), roots)
		}
	}
	return errors.Join(errs...)
}

// fail undoes the transaction and returns err, saying whether the previous
// output was restored.
func (tx *transaction) fail(err error) error {
	if uerr := tx.undo(); uerr != nil {
		return fmt.Errorf("%w; restoring the previous output failed too: %v", err, uerr)
	}
	return fmt.Errorf("%w; nothing was changed", err)
}

// undo reverts every change in reverse order and removes the temporary
// files, unused backup names and created folders.
func (tx *transaction) undo() error {
	var errs []error
	for i := len(tx.changes) - 1; i >= 0; i-- {
		errs = append(errs, tx.changes[i].revert())
	}
	for _, r := range tx.reserved {
		os.Remove(r) // reserved backup names never used
	}
	for i := len(tx.createdDirs) - 1; i >= 0; i-- {
		os.Remove(tx.createdDirs[i]) // only removes empty folders
	}
	return errors.Join(errs...)
}

// revert puts the previous file of c back and removes its new one.
func (c *change) revert() error {
	var errs []error
	if c.placed {
		if err := os.Remove(c.dst); err != nil {
			errs = append(errs, err)
		}
	}
	if c.backup != "" {
		if err := os.Rename(c.backup, c.dst); err != nil {
			errs = append(errs, fmt.Errorf("restoring %s from %s: %w", c.dst, c.backup, err))
		}
	}
	if c.tmp != "" && !c.placed {
		os.Remove(c.tmp)
	}
	return errors.Join(errs...)
}
