package compact

// DecodedSession is a Decoded as one watch stream, or one list and its
// pages, hands objects over through it (Begin): Previous, Compact, Adopt
// and AdoptCopied as Decoded's, but once a newer session has begun, an
// object handed over through this one is not remembered (the informer
// compacts it itself, should it take it at all), and Previous answers
// with the informer's own hint.
//
// Why: a decoder reads the object it handed over last for a key as the
// hint of that key's next object, and the informer writes an object it
// takes against another hint than the one the decoder gave it (its
// compaction walk). Within one stream the two hints are the same. But
// an object of an earlier stream may be one the informer never took (the
// stream stopped a decode ahead of the reflector) or one a relist then
// replaced: the next stream's object decoded against it would be
// compacted again by the informer while the decoder still reads it.
// The reflector opens a stream or lists only once it queued what it took
// from the one before, so the informer's hint is then the one to use.
//
// The zero DecodedSession, and one of a nil Decoded, do nothing.
type DecodedSession struct {
	c *Decoded
	// session is the Begin that made it, or newestSession for
	// Decoded's own methods.
	session uint64
}

// newestSession is the session of Decoded's own methods: whichever
// began last.
const newestSession = 0

// Begin starts a session, for a new watch stream or a new list (its
// first page): what earlier sessions handed over is forgotten. c may be
// nil.
func (c *Decoded) Begin() DecodedSession {
	if c == nil {
		return DecodedSession{}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.session++
	clear(c.slots)
	clear(c.byObject)
	clear(c.byKey)
	c.next = 0
	return DecodedSession{c: c, session: c.session}
}

// Enabled reports whether the session's Decoded compacts.
func (s DecodedSession) Enabled() bool { return s.c.Enabled() }

// StripsManagedFields is the session's Decoded's StripsManagedFields.
func (s DecodedSession) StripsManagedFields() bool { return s.c.StripsManagedFields() }

// Omit is what a decoder leaves out of the objects it decodes for the
// session's informer: their managedFields when it strips them.
func (s DecodedSession) Omit() Omit {
	if s.StripsManagedFields() {
		return OmitManagedFields
	}
	return 0
}

// Compact is DecodedSession.Compact in the newest session. c may be nil.
func (c *Decoded) Compact(obj any, deleted bool) { DecodedSession{c: c}.Compact(obj, deleted) }

// Previous is DecodedSession.Previous in the newest session. c may be nil.
func (c *Decoded) Previous(obj any) (hint any, key string, ok bool) {
	return DecodedSession{c: c}.Previous(obj)
}

// Adopt is DecodedSession.Adopt in the newest session. c may be nil.
func (c *Decoded) Adopt(obj any, key string, hint any, deleted bool) {
	DecodedSession{c: c}.Adopt(obj, key, hint, deleted)
}

// AdoptCopied is DecodedSession.AdoptCopied in the newest session. c may be nil.
func (c *Decoded) AdoptCopied(obj any, size uintptr, key string, hint any) {
	DecodedSession{c: c}.AdoptCopied(obj, size, key, hint)
}

// Compact compacts obj, an object the caller just decoded and still
// holds alone, as the informer that enabled c would, and marks it;
// deleted tells that obj's event deletes it. It does nothing before
// Enable, nor for an object without a key. c may be nil.
func (s DecodedSession) Compact(obj any, deleted bool) {
	c := s.c
	if c == nil || obj == nil {
		return
	}
	cfg := c.on.Load()
	if cfg == nil {
		return
	}
	key, err := cfg.key(obj)
	if err != nil {
		return
	}
	hint, known := c.pending(key, s.session)
	if !known {
		hint = cfg.hint(key)
	}
	cfg.prepare(obj)
	cfg.compaction(obj, hint)
	c.remember(decodedSlot{session: s.session, key: key, obj: obj, hint: hint, deleted: deleted})
}

// Previous returns what Compact would compact obj against: hint, the
// version of obj's key the informer will hand its compaction (nil for
// none), and the key; ok is false before Enable and for an object
// without a key. A decoder that builds the compact object itself asks
// it once the object's metadata is decoded, and hands the object over
// with Adopt. c may be nil.
func (s DecodedSession) Previous(obj any) (hint any, key string, ok bool) {
	c := s.c
	if c == nil || obj == nil {
		return nil, "", false
	}
	cfg := c.on.Load()
	if cfg == nil {
		return nil, "", false
	}
	key, err := cfg.key(obj)
	if err != nil {
		return nil, "", false
	}
	hint, known := c.pending(key, s.session)
	if !known {
		hint = cfg.hint(key)
	}
	return hint, key, true
}

// Adopt marks obj, an object the caller decoded compact against hint
// (from Previous, for key), as Compact marks the objects it compacts:
// the informer, given the same hint, then skips its compaction. When
// obj's key is no longer key (its metadata changed after Previous), it
// compacts obj as Compact does instead. c may be nil.
func (s DecodedSession) Adopt(obj any, key string, hint any, deleted bool) {
	c := s.c
	if c == nil || obj == nil {
		return
	}
	cfg := c.on.Load()
	if cfg == nil {
		return
	}
	if k, err := cfg.key(obj); err != nil || k != key {
		s.Compact(obj, deleted)
		return
	}
	cfg.prepare(obj)
	c.remember(decodedSlot{session: s.session, key: key, obj: obj, hint: hint, deleted: deleted})
}

// AdoptCopied is Adopt of obj, a pointer to a struct of size bytes that
// the informer takes a shallow copy of (an item of a listed page: the
// reflector copies each, meta.EachListItemWithAlloc): Compacted then
// also recognizes an object of obj's type and key whose struct's bytes
// are obj's, its copy, and takes it in obj's place. The caller must not
// change obj afterwards.
func (s DecodedSession) AdoptCopied(obj any, size uintptr, key string, hint any) {
	c := s.c
	if c == nil || obj == nil || size == 0 {
		return
	}
	cfg := c.on.Load()
	if cfg == nil {
		return
	}
	cfg.prepare(obj)
	c.copies.Store(true)
	c.remember(decodedSlot{session: s.session, key: key, obj: obj, hint: hint, size: size})
}
