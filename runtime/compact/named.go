package compact

// TransformWith returns the compaction of *T objects by the walks it is
// given, found by name where the informer is built instead of in the
// registry (Register, RegisterUpdate), which stays the fallback of
// informers built by hand (Table.TransformUpdate). The returned function
// compacts obj in place: when old is a *T (the version obj replaces, as
// the cache holds it) and update is not nil, with update; with walk
// otherwise. An obj of another type is compacted with its own type's
// compaction (Table.Object). old must be compact and must not be changed
// by anyone (a cached object): obj may share its parts from now on.
// informer-gen's generated informers pass their kind's generated walks.
func TransformWith[T any](t *Table, walk Walk[T], update func(t *Table, p, old *T)) func(obj, old any) {
	return func(obj, old any) {
		p, ok := obj.(*T)
		switch {
		case obj == nil || (ok && p == nil):
		case !ok:
			t.Object(obj)
		default:
			if o, isT := old.(*T); isT && o != nil && update != nil {
				update(t, p, o)
				return
			}
			h := rootHash()
			walk(t, p, h)
			releaseHash(h)
		}
	}
}
