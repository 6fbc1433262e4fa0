package compact

import (
	"reflect"
	"strings"
	"unsafe"
	"weak"
)

// guardCursor is where the next round of a Guard starts: a shard and a
// slot index in it (slot arrays are rebuilt as they fill, so the index
// is only a position to go on from).
type guardCursor struct {
	shard, slot int
}

// sampled is one canonical copy taken from its slot to check: its storage
// (a strong pointer: it stays alive while it is checked), length, type,
// recorded hash and check.
type sampled struct {
	p     unsafe.Pointer
	n     int
	typ   unsafe.Pointer
	hash  uint64
	check checkFunc
}

// scanFactor bounds the slots a round looks at, empty or collected ones
// included, to scanFactor times PerRound: a round in a sparse part of the
// table checks fewer than PerRound copies.
const scanFactor = 4

// Round runs one round of the sampler now, in the caller's goroutine: it
// re-hashes up to PerRound canonical copies, going on from where the last
// round stopped, visiting each shard at most once and looking at no more
// than scanFactor × PerRound slots, for at most about Budget, and handles
// each mutated copy it finds. It returns the number
// of copies it checked. The sampler calls it every Period while the guard
// has holders.
func (g *Guard) Round() int {
	g.roundMu.Lock()
	defer g.roundMu.Unlock()
	start := g.opts.Clock.Now()
	checked, scanned := 0, 0
	var bad []sampled
	for visited := 0; visited < shardCount && checked < g.opts.PerRound; visited++ {
		if visited > 0 && g.opts.Clock.Since(start) >= g.opts.Budget {
			break
		}
		g.buf = g.sample(g.buf[:0], g.opts.PerRound-checked, scanFactor*g.opts.PerRound-scanned, &scanned)
		for i := range g.buf {
			c := &g.buf[i]
			if slotHash(c.check(c.p, c.n)) != c.hash {
				bad = append(bad, *c)
			}
			checked++
			if g.opts.Clock.Since(start) >= g.opts.Budget {
				break
			}
		}
		clear(g.buf) // the strong pointers go
		if scanned >= scanFactor*g.opts.PerRound {
			break
		}
	}
	g.finishRound(checked, scanned)
	for _, c := range bad {
		g.mutated(c)
	}
	return checked
}

// finishRound counts a round that checked n copies and looked at
// scanned slots.
func (g *Guard) finishRound(n, scanned int) {
	g.mu.Lock()
	g.stats.Rounds++
	g.stats.Checked += n
	g.stats.Scanned += scanned
	m := g.metrics
	g.mu.Unlock()
	if m != nil {
		m.ValuesChecked(n)
	}
}

// sample appends to buf up to want live, checkable copies of the cursor's
// shard from the cursor's slot on, looking at no more than scanLeft slots
// (counted in *scanned); it moves the cursor past them, to the next shard
// when it reached the shard's end.
func (g *Guard) sample(buf []sampled, want, scanLeft int, scanned *int) []sampled {
	s := &g.table.shards[g.cursor.shard]
	s.mu.Lock()
	defer s.mu.Unlock()
	i := g.cursor.slot
	for ; i < len(s.slots) && want > 0 && scanLeft > 0; i++ {
		scanLeft--
		*scanned++
		sl := &s.slots[i]
		if sl.hash == 0 || sl.check == nil {
			continue
		}
		p := unsafe.Pointer(sl.ptr.Value())
		if p == nil {
			continue
		}
		buf = append(buf, sampled{p: p, n: sl.n, typ: sl.typ, hash: sl.hash, check: sl.check})
		want--
	}
	if i >= len(s.slots) {
		g.cursor = guardCursor{shard: (g.cursor.shard + 1) % shardCount}
	} else {
		g.cursor.slot = i
	}
	return buf
}

// remove takes the copy c out of the table: its slot keeps its place in
// the probe sequence, with no copy, and is dropped at the shard's next
// rebuild. It reports whether the copy was still there.
func (g *Guard) remove(c sampled) bool {
	s := &g.table.shards[c.hash%shardCount]
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := range s.slots {
		sl := &s.slots[i]
		if sl.hash == c.hash && sl.typ == c.typ && unsafe.Pointer(sl.ptr.Value()) == c.p {
			sl.ptr, sl.check = weak.Pointer[byte]{}, nil
			g.table.mutations.Add(1) // the memo may hold it: drop the memo's entries
			return true
		}
	}
	return false
}

// mutated handles the mutated copy c: removes it, has the holders find
// and restore their objects holding it, logs and counts.
func (g *Guard) mutated(c sampled) {
	if !g.remove(c) {
		return // another round removed it
	}
	m := mutationOf(c)
	objects := 0
	for _, h := range g.holderList() {
		held := h.Corrupted(m)
		objects += len(held)
		g.logOnce(m, held)
	}
	g.mu.Lock()
	g.stats.Mutations++
	g.stats.Objects += objects
	metrics := g.metrics
	g.mu.Unlock()
	if metrics != nil {
		metrics.MutationFound(objects)
	}
	if objects == 0 {
		g.logger.Info("A shared part of cached objects was mutated; no cached object holds it any more", "type", m.Type)
	}
}

// logOnce logs, once per object type and field path, an object that
// holds the mutated copy m.
func (g *Guard) logOnce(m Mutation, held []Held) {
	for _, o := range held {
		for _, path := range o.Paths {
			id := o.Type + " " + indexFree(path)
			g.mu.Lock()
			_, seen := g.logged[id]
			g.logged[id] = struct{}{}
			g.mu.Unlock()
			if seen {
				continue
			}
			g.logger.Error(nil, "A cached object was mutated in a part it shares with other cached objects (the informer contract forbids mutating cached objects); the part is no longer shared and the informer relists to restore the objects holding it",
				"objectType", o.Type, "path", path, "key", o.Key, "objects", len(held), "partType", m.Type)
		}
	}
}

// indexFree is path with its slice indices dropped: the field path of a
// type, the same for every element (".Spec.Containers[].Env").
func indexFree(path string) string {
	var b strings.Builder
	for i := 0; i < len(path); i++ {
		if path[i] == '[' && i+1 < len(path) && path[i+1] >= '0' && path[i+1] <= '9' {
			j := strings.IndexByte(path[i:], ']')
			if j > 0 {
				b.WriteString("[]")
				i += j
				continue
			}
		}
		b.WriteByte(path[i])
	}
	return b.String()
}

// typeOfWord is the reflect.Type whose typeWord is tw.
func typeOfWord(tw unsafe.Pointer) reflect.Type {
	t := reflect.TypeFor[int]()
	(*[2]unsafe.Pointer)(unsafe.Pointer(&t))[1] = tw
	return t
}
