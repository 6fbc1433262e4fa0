package chaos

import (
	"context"
	"sync"

	"github.com/informer-gen/informer-gen/shard/ring"
)

// journaledTarget is the replica's ring Target: it forwards to the
// informers' target and journals what they may hold, the union of the old
// and new ranges while a Set runs, the new ranges once it returned.
type journaledTarget struct {
	next    ring.Target
	journal *Journal

	mu   sync.Mutex // guards held
	held ring.Ranges
}

// Set implements ring.Target.
func (t *journaledTarget) Set(ctx context.Context, rs ring.Ranges) error {
	t.mu.Lock()
	during := t.held.Union(rs)
	t.held = during
	t.mu.Unlock()
	t.journal.Append(Entry{Kind: EntryHeld, Ranges: during.String()})
	err := t.next.Set(ctx, rs)
	if err != nil {
		return err
	}
	t.mu.Lock()
	t.held = rs
	t.mu.Unlock()
	t.journal.Append(Entry{Kind: EntryHeld, Ranges: rs.String()})
	return nil
}

// Held returns what the informers may hold now.
func (t *journaledTarget) Held() ring.Ranges {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.held
}
