package cache

import "github.com/informer-gen/informer-gen/runtime/cache/internal/queue"

// Objects a decoder hands over compact (SharedIndexInformerOptions.Decoded,
// compact.Decoded): when the informer compacts with no transform (or only
// StripManagedFields, decodedCompactionAllows), it
// enables the decoder's compaction with its own compaction and its
// queue's hint, and skips compacting an object the decoder compacted
// against the hint the queue gives it. The cache then holds what it would
// have held had the queue compacted the object: the same walks, Table
// and hint made it.

// decodedCompactionLocked returns the queue's compaction, compaction
// (nil when the informer does not compact), skipping the objects
// s.opts.Decoded compacted and compacting a copy of one it handed over
// against another hint (compact.Decoded.Take), and the function that
// enables s.opts.Decoded once the queue exists (a no-op when the decoder
// cannot compact for it: compaction off, or a transform other than
// StripManagedFields, which must see objects before they are compacted).
// With StripManagedFields, the decoder strips each object itself
// (compact.Decoded.Enable): the informer's transform then finds nothing
// to clear and writes nothing to an object the decoder may still read.
func (s *sharedIndexInformer) decodedCompactionLocked(compaction func(obj, hint any)) (queue.Compactor, func(*DeltaFIFO)) {
	if compaction == nil {
		return nil, func(*DeltaFIFO) {}
	}
	decoded := s.opts.Decoded
	if decoded == nil || !decodedCompactionAllows(s.transform) {
		return func(obj, hint any) any {
			compaction(obj, hint)
			return obj
		}, func(*DeltaFIFO) {}
	}
	taking := func(obj, hint any) any {
		taken, compacted := decoded.Take(obj, hint)
		if !compacted {
			compaction(taken, hint)
		}
		return taken
	}
	strips := s.transform != nil // StripManagedFields (decodedCompactionAllows)
	enable := func(f *DeltaFIFO) { decoded.Enable(f.KeyOf, f.q.Hint, compaction, strips) }
	return taking, enable
}
