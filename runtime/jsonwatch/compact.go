package jsonwatch

// askedPrevious is the hint an object decoded into the compact object
// was decoded against (compact.Decoded.Previous), once asked.
type askedPrevious struct {
	asked, ok bool
	hint      any
	key       string
}

// previous is the jsondecode.Previous of the object being decoded: the
// version the informer will compact it against, when it is a T (the
// decoder takes equal parts from it field by field); it records what it
// answered for adopt.
func (d *decoding[T, PT]) previous(root any) any {
	hint, key, ok := d.decoded.Previous(root)
	d.asked = askedPrevious{asked: true, ok: ok, hint: hint, key: key}
	if old, isT := hint.(PT); isT && old != nil {
		return old
	}
	return nil
}

// adopt hands obj, decoded into the compact object, to the informer
// (compact.Decoded.Adopt), so that it skips its compaction.
func (d *decoding[T, PT]) adopt(obj PT, deleted bool) {
	if !d.asked.asked {
		d.previous(obj) // no part of obj asked for it
	}
	if !d.asked.ok {
		d.decoded.Compact(obj, deleted)
		return
	}
	d.decoded.Adopt(obj, d.asked.key, d.asked.hint, deleted)
}
