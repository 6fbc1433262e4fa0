package delivery

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// TestBacklogMatchesModel pushes, kills and takes changes at random across
// chunk boundaries and table growth, checking against a plain ordered
// model: lookups find exactly the live keys, and take returns them oldest
// first.
func TestBacklogMatchesModel(t *testing.T) {
	for seed := uint64(1); seed <= 5; seed++ {
		t.Run(strconv.FormatUint(seed, 10), func(t *testing.T) {
			r := rand.New(rand.NewPCG(seed, 0))
			b := newBacklog(hasKey)
			var order []string // live keys, oldest first
			live := map[string]bool{}
			const keys = 5000
			for step := 0; step < 40000; step++ {
				key := "ns/k" + strconv.Itoa(r.IntN(keys))
				switch op := r.IntN(10); {
				case op < 6:
					c, _, tag := b.lookup(key)
					if (c != nil) != live[key] {
						t.Fatalf("step %d: lookup(%s) found %v, want %v", step, key, c != nil, live[key])
					}
					if c == nil {
						_, name, _ := strings.Cut(key, "/")
						c, _ = b.push(tag)
						c.kind, c.new = Add, testObject("ns", name, "1")
						live[key] = true
						order = append(order, key)
					}
				case op < 8:
					if c, seq, _ := b.lookup(key); c != nil {
						b.kill(c, seq)
						delete(live, key)
						for i, k := range order {
							if k == key {
								order = append(order[:i], order[i+1:]...)
								break
							}
						}
					}
				default:
					got := b.take(nil, r.IntN(300))
					for i := range got {
						gotKey := keyOf(got[i].new)
						if gotKey != order[i] {
							t.Fatalf("step %d: took %s at %d, want %s", step, gotKey, i, order[i])
						}
						delete(live, gotKey)
					}
					order = order[len(got):]
				}
				if b.live() != len(order) {
					t.Fatalf("step %d: %d live, want %d", step, b.live(), len(order))
				}
			}
		})
	}
}

func TestBacklogReleasesMemoryOnceDrained(t *testing.T) {
	b := newBacklog(hasKey)
	for i := 0; i < 3*backlogChunkSize; i++ {
		key := "ns/k" + strconv.Itoa(i)
		_, _, tag := b.lookup(key)
		c, _ := b.push(tag)
		c.kind, c.new = Add, testObject("ns", "k"+strconv.Itoa(i), "1")
	}
	if got := b.take(nil, 5*backlogChunkSize); len(got) != 3*backlogChunkSize {
		t.Fatalf("took %d changes, want %d", len(got), 3*backlogChunkSize)
	}
	if !b.empty() || b.live() != 0 || b.index.Size() != 0 || len(b.chunks) != 0 || b.spare == nil {
		t.Fatalf("drained backlog holds %d slots, %d chunks (live %d, empty %v, spare %v)", b.index.Size(), len(b.chunks), b.live(), b.empty(), b.spare != nil)
	}
	for i := range b.spare {
		if b.spare[i] != (pendingChange{}) {
			t.Fatalf("spare chunk entry %d still holds %+v", i, b.spare[i])
		}
	}
}

// BenchmarkBacklogFillDrain measures queuing 10k changes of distinct keys,
// looking each up once more, and draining them.
func BenchmarkBacklogFillDrain(b *testing.B) {
	const n = 10_000
	keys := make([]string, n)
	objs := make([]any, n)
	for i := range objs {
		keys[i] = "namespace-" + strconv.Itoa(i%100) + "/configmap-" + strconv.Itoa(i)
		objs[i] = explicitKey(keys[i])
	}
	bl := newBacklog(hasKey)
	dst := make([]pendingChange, 0, n)
	for b.Loop() {
		for i, k := range keys {
			c, _, tag := bl.lookup(k)
			if c == nil {
				c, _ = bl.push(tag)
			}
			c.kind, c.new = Add, objs[i]
		}
		for _, k := range keys {
			if c, _, _ := bl.lookup(k); c == nil {
				b.Fatal("missing change")
			}
		}
		if dst = bl.take(dst[:0], n); len(dst) != n {
			b.Fatal(len(dst))
		}
	}
}
