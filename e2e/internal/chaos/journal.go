package chaos

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sync"
	"time"
)

// Entry kinds of a replica's journal.
const (
	// EntryListen: the replica's debug endpoint listens on Addr.
	EntryListen = "listen"
	// EntryHeld: from At on, the replica's informers may hold Ranges.
	EntryHeld = "held"
	// EntryStatus: the replica wrote the status of the Widget UID (Name)
	// in a request sent at At and answered at Done.
	EntryStatus = "status"
	// EntryStart and EntryExit, written by the driver: an incarnation of
	// the replica starts, and it has exited (killed or terminated).
	EntryStart = "start"
	EntryExit  = "exit"
)

// Entry is one line of a replica's journal: what it did and when (Unix
// nanoseconds of the machine's clock, shared by every process of the soak).
type Entry struct {
	Kind   string `json:"kind"`
	At     int64  `json:"at"`
	Done   int64  `json:"done,omitempty"`
	Addr   string `json:"addr,omitempty"`
	Ranges string `json:"ranges,omitempty"`
	UID    string `json:"uid,omitempty"`
	Name   string `json:"name,omitempty"`
}

// Journal appends entries to a file, one JSON object a line. Each entry
// is one write(2), so it is on disk for the driver even when the replica
// is killed right after. Safe for concurrent use.
type Journal struct {
	mu sync.Mutex // guards f's writes
	f  *os.File
}

// OpenJournal opens path for appending, creating it.
func OpenJournal(path string) (*Journal, error) {
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		return nil, fmt.Errorf("chaos: journal: %w", err)
	}
	return &Journal{f: f}, nil
}

// Append writes e, stamped now when e.At is zero.
func (j *Journal) Append(e Entry) {
	if e.At == 0 {
		e.At = time.Now().UnixNano()
	}
	line, err := json.Marshal(e)
	if err != nil {
		panic(err) // Entry always marshals
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	_, _ = j.f.Write(append(line, '\n'))
}

// Close closes the file.
func (j *Journal) Close() error { return j.f.Close() }

// ReadJournal returns the complete entries of path (a missing file has
// none); a last line cut short by a kill is dropped.
func ReadJournal(path string) ([]Entry, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []Entry
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	for sc.Scan() {
		var e Entry
		if json.Unmarshal(sc.Bytes(), &e) == nil {
			out = append(out, e)
		}
	}
	return out, sc.Err()
}
