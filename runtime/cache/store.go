package cache

// Store is a thread-safe key/object store. Objects are keyed by the KeyFunc
// given to its constructor (NewStore, NewIndexer); there is no default.
//
// Every method is safe for concurrent use. Objects handed to or returned by a
// Store are shared with the informer and its handlers: callers must treat
// them as read-only and deep-copy before mutating.
type Store interface {
	// Add inserts obj, or replaces the object stored under the same key.
	Add(obj any) error
	// Update replaces the object stored under obj's key, inserting it if absent.
	Update(obj any) error
	// Delete removes the object stored under obj's key. Deleting an absent
	// key is not an error.
	Delete(obj any) error
	// List returns every stored object, in no particular order.
	List() []any
	// ListKeys returns the key of every stored object, in no particular order.
	ListKeys() []string
	// Get returns the object stored under obj's key.
	Get(obj any) (item any, exists bool, err error)
	// GetByKey returns the object stored under key.
	GetByKey(key string) (item any, exists bool, err error)
	// Replace atomically replaces the whole content with list. resourceVersion
	// is the version of the list the content came from; plain stores ignore it.
	Replace(list []any, resourceVersion string) error
	// Resync is meaningful only for queues (see DeltaFIFO); stores return nil.
	Resync() error
	// Bookmark records rv as the resourceVersion the content reflects,
	// without changing the content.
	Bookmark(rv string)
	// LastStoreSyncResourceVersion returns the resourceVersion last
	// recorded by Replace, Bookmark or, for an informer's cache, the last
	// batch of changes applied to it (empty before any).
	LastStoreSyncResourceVersion() string
}
