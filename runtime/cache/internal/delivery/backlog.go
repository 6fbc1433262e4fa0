package delivery

import (
	"hash/maphash"

	"github.com/informer-gen/informer-gen/runtime/cache/internal/probe"
)

// This file holds backlog, the per-key coalesced notifications of a lagging
// listener. It is shaped for memory, since a stalled handler can make it
// hold one change for every object of the informer:
//
//   - changes live in a FIFO of fixed-size chunks, addressed by a 32-bit
//     sequence number; a change costs 40 bytes and no allocation of its own;
//   - the key -> change index is a probe.Table of 8-byte slots (32-bit hash
//     tag + sequence number), so no key string is kept: a tag match is
//     confirmed against the key of an object the change holds;
//   - once drained, the table and all but one chunk are released.
//
// backlog is not safe for concurrent use; the listener's lock guards it.

const (
	backlogChunkBits = 10
	backlogChunkSize = 1 << backlogChunkBits
	backlogChunkMask = backlogChunkSize - 1
	// backlogKeptSlots is the largest table kept once the backlog drained.
	backlogKeptSlots = 64
)

// pendingChange is the coalesced net change of one key: an optional delete
// of the object the handler knows, followed by an optional add, update or
// resync. A change with neither is dead: it stays in the FIFO until
// consumed but is no longer indexed and delivers nothing.
type pendingChange struct {
	tag     uint32 // hash tag of the key; bit 31 is always set
	kind    Kind
	initial bool // kind is an add of the handler's initial list
	deleted bool // a delete of old precedes kind
	// old is the object to delete when deleted is set, otherwise the old
	// state of an update. A delete and an update never both pend: after a
	// delete the key can only be added again, and updates merge into that.
	old any
	new any // add, update and resync
}

// live reports whether c is indexed and delivers something.
func (c *pendingChange) live() bool { return c.deleted || c.kind != None }

// backlog is a FIFO of pending changes indexed by key. It is not safe for
// concurrent use; the listener's lock guards it.
type backlog struct {
	seed   maphash.Seed
	index  probe.Table[uint64]            // tag<<32 | seq of every live change
	hasKey func(obj any, key string) bool // confirms a tag match (ListenerConfig.HasKey)

	chunks     []*[backlogChunkSize]pendingChange // chunks[0][0] has seq base
	spare      *[backlogChunkSize]pendingChange
	base       uint32
	head, tail uint32 // next seq to take, next seq to queue
}

// newBacklog returns an empty backlog that confirms keys with hasKey.
func newBacklog(hasKey func(obj any, key string) bool) backlog {
	return backlog{seed: maphash.MakeSeed(), index: probe.New[uint64](probe.KeySizing, 0), hasKey: hasKey}
}

// holdsKey reports whether the objects of live change c are filed under
// key. A false negative costs a second change for the key, never a wrong
// delivery: changes of one key are still delivered in the order queued.
func (b *backlog) holdsKey(c *pendingChange, key string) bool {
	obj := c.new
	if c.kind == None {
		obj = c.old
	}
	return b.hasKey(obj, key)
}

// live returns the number of live (indexed) changes.
func (b *backlog) live() int { return b.index.Len() }

// empty reports whether no change, live or dead, is queued.
func (b *backlog) empty() bool { return b.head == b.tail }

// at returns the change with sequence number seq, which must be queued.
func (b *backlog) at(seq uint32) *pendingChange {
	off := seq - b.base
	return &b.chunks[off>>backlogChunkBits][off&backlogChunkMask]
}

// tag returns the hash tag of key; it is never zero, so no slot is.
func (b *backlog) tag(key string) uint32 {
	return uint32(maphash.String(b.seed, key)) | 1<<31
}

// lookup returns the live change of key with its sequence number, or nil
// and the tag to queue a new change with.
func (b *backlog) lookup(key string) (c *pendingChange, seq, tag uint32) {
	tag = b.tag(key)
	for i, s := b.index.First(tag); s != 0; i, s = b.index.Next(i) {
		if probe.Tag(s) == tag {
			if c := b.at(uint32(s)); b.holdsKey(c, key) {
				return c, uint32(s), tag
			}
		}
	}
	return nil, 0, tag
}

// push queues and indexes an empty change with tag; the caller fills it
// in (it must become live).
func (b *backlog) push(tag uint32) (*pendingChange, uint32) {
	seq := b.tail
	if off := seq - b.base; int(off>>backlogChunkBits) == len(b.chunks) {
		chunk := b.spare
		b.spare = nil
		if chunk == nil {
			chunk = new([backlogChunkSize]pendingChange)
		}
		b.chunks = append(b.chunks, chunk)
	}
	b.tail++
	c := b.at(seq)
	*c = pendingChange{tag: tag}
	b.index.Insert(uint64(tag)<<32 | uint64(seq))
	return c, seq
}

// unindex removes live change c with sequence number seq from the index.
func (b *backlog) unindex(c *pendingChange, seq uint32) {
	b.index.Remove(uint64(c.tag)<<32 | uint64(seq))
}

// kill makes live change c dead: it is unindexed and forgotten, and a
// later notification of its key queues a new change.
func (b *backlog) kill(c *pendingChange, seq uint32) {
	b.unindex(c, seq)
	*c = pendingChange{}
}

// take appends up to n live changes to dst, oldest first, and removes
// them (and the dead changes among them) from the backlog.
func (b *backlog) take(dst []pendingChange, n int) []pendingChange {
	for b.head != b.tail && len(dst) < n {
		c := b.at(b.head)
		if c.live() {
			b.unindex(c, b.head)
			dst = append(dst, *c)
		}
		*c = pendingChange{}
		b.head++
		if b.head-b.base == backlogChunkSize {
			b.spare = b.chunks[0]
			copy(b.chunks, b.chunks[1:])
			b.chunks[len(b.chunks)-1] = nil
			b.chunks = b.chunks[:len(b.chunks)-1]
			b.base = b.head
		}
	}
	if b.head == b.tail {
		b.release()
	}
	return dst
}

// reset forgets every change.
func (b *backlog) reset() {
	for b.head != b.tail {
		*b.at(b.head) = pendingChange{}
		b.head++
	}
	b.index.Clear()
	b.release()
}

// release frees what an empty backlog holds beyond one chunk and a small
// table.
func (b *backlog) release() {
	if b.index.Size() > backlogKeptSlots {
		b.index.Drop()
	}
	if len(b.chunks) > 0 {
		b.spare = b.chunks[0]
		clear(b.chunks)
		b.chunks = b.chunks[:0]
	}
	b.base = b.head
}
