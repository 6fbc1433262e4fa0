package protowatch

import (
	"github.com/informer-gen/informer-gen/runtime/compact"
	"github.com/informer-gen/informer-gen/runtime/protodecode"
)

// compactDecoding decodes the objects of one stream's events into the
// compact object (protodecode.DecodeCompact) and hands them to the
// informer already compact (compact.Decoded.Adopt), so that no walk runs
// after the decode; an object the fast path does not decode is decoded
// by T's Unmarshal, for its object or error, and compacted by the walk
// (compact.Decoded.Compact) as before. It is used by the stream's
// goroutine only.
type compactDecoding[T any, PT Object[T]] struct {
	decode     protodecode.Func[T]
	table      *compact.Table
	decoded    compact.DecodedSession
	previousFn protodecode.Previous // previous, made once
	// asked is what previous answered for the object being decoded.
	asked askedPrevious
}

// askedPrevious is the hint an object decoded into the compact object
// was decoded against (compact.Decoded.Previous), once asked.
type askedPrevious struct {
	asked, ok bool
	hint      any
	key       string
}

func newCompactDecoding[T any, PT Object[T]](decode protodecode.Func[T], table *compact.Table, decoded compact.DecodedSession) *compactDecoding[T, PT] {
	c := &compactDecoding[T, PT]{decode: decode, table: table, decoded: decoded}
	c.previousFn = c.previous
	return c
}

// object decodes data, a T, into p (a *T) for an event that deletes it
// or not, and hands it to the informer; its error is Unmarshal's.
func (c *compactDecoding[T, PT]) object(data []byte, p any, deleted bool) error {
	obj := p.(*T)
	if !c.decoded.Enabled() {
		if err := protodecode.Unmarshal[T, PT](data, obj, c.decode, c.table); err != nil {
			return err
		}
		c.decoded.Compact(PT(obj), deleted)
		return nil
	}
	c.asked = askedPrevious{}
	if err := protodecode.DecodeCompact(data, obj, c.decode, c.table, c.previousFn, c.decoded.Omit()); err != nil {
		var zero T
		*obj = zero
		if err := PT(obj).Unmarshal(data); err != nil {
			return err
		}
		c.decoded.Compact(PT(obj), deleted) // not compact: walked as before
		return nil
	}
	c.adopt(PT(obj), deleted)
	return nil
}

// previous is the protodecode.Previous of the object being decoded: the
// version the informer will compact it against, when it is a T (the
// decoder takes equal parts from it field by field); it records what it
// answered for adopt.
func (c *compactDecoding[T, PT]) previous(root any) any {
	hint, key, ok := c.decoded.Previous(root)
	c.asked = askedPrevious{asked: true, ok: ok, hint: hint, key: key}
	if old, isT := hint.(PT); isT && old != nil {
		return old
	}
	return nil
}

// adopt hands obj, decoded into the compact object, to the informer
// (compact.Decoded.Adopt), so that it skips its compaction. An object
// decoded without asking for its previous version (no metadata) that
// has one is compacted by the walk against it instead.
func (c *compactDecoding[T, PT]) adopt(obj PT, deleted bool) {
	if !c.asked.asked {
		if c.previous(obj); c.asked.hint != nil {
			c.decoded.Compact(obj, deleted)
			return
		}
	}
	if !c.asked.ok {
		c.decoded.Compact(obj, deleted)
		return
	}
	c.decoded.Adopt(obj, c.asked.key, c.asked.hint, deleted)
}
