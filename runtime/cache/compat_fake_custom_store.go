package cache

// FakeCustomStore is a Store whose methods call the functions set in its
// fields; a method whose function is nil does nothing and returns zero
// values. Tests use it to observe or script what a Reflector or an
// informer does with its store.
//
// The informer does not use it; it is here for code written against
// client-go's tools/cache.
//
// Compatibility code, kept for code written against client-go: the informer
// does not use it.
type FakeCustomStore struct {
	AddFunc                          func(obj any) error
	UpdateFunc                       func(obj any) error
	DeleteFunc                       func(obj any) error
	ListFunc                         func() []any
	ListKeysFunc                     func() []string
	GetFunc                          func(obj any) (item any, exists bool, err error)
	GetByKeyFunc                     func(key string) (item any, exists bool, err error)
	ReplaceFunc                      func(list []any, resourceVersion string) error
	ResyncFunc                       func() error
	BookmarkFunc                     func(rv string)
	LastStoreSyncResourceVersionFunc func() string
}

var _ Store = &FakeCustomStore{}

// Add calls AddFunc if defined.
func (f *FakeCustomStore) Add(obj any) error {
	if f.AddFunc != nil {
		return f.AddFunc(obj)
	}
	return nil
}

// Update calls UpdateFunc if defined.
func (f *FakeCustomStore) Update(obj any) error {
	if f.UpdateFunc != nil {
		return f.UpdateFunc(obj)
	}
	return nil
}

// Delete calls DeleteFunc if defined.
func (f *FakeCustomStore) Delete(obj any) error {
	if f.DeleteFunc != nil {
		return f.DeleteFunc(obj)
	}
	return nil
}

// List calls ListFunc if defined.
func (f *FakeCustomStore) List() []any {
	if f.ListFunc != nil {
		return f.ListFunc()
	}
	return nil
}

// ListKeys calls ListKeysFunc if defined.
func (f *FakeCustomStore) ListKeys() []string {
	if f.ListKeysFunc != nil {
		return f.ListKeysFunc()
	}
	return nil
}

// Get calls GetFunc if defined.
func (f *FakeCustomStore) Get(obj any) (item any, exists bool, err error) {
	if f.GetFunc != nil {
		return f.GetFunc(obj)
	}
	return nil, false, nil
}

// GetByKey calls GetByKeyFunc if defined.
func (f *FakeCustomStore) GetByKey(key string) (item any, exists bool, err error) {
	if f.GetByKeyFunc != nil {
		return f.GetByKeyFunc(key)
	}
	return nil, false, nil
}

// Replace calls ReplaceFunc if defined.
func (f *FakeCustomStore) Replace(list []any, resourceVersion string) error {
	if f.ReplaceFunc != nil {
		return f.ReplaceFunc(list, resourceVersion)
	}
	return nil
}

// Resync calls ResyncFunc if defined.
func (f *FakeCustomStore) Resync() error {
	if f.ResyncFunc != nil {
		return f.ResyncFunc()
	}
	return nil
}

// Bookmark calls BookmarkFunc if defined.
func (f *FakeCustomStore) Bookmark(rv string) {
	if f.BookmarkFunc != nil {
		f.BookmarkFunc(rv)
	}
}

// LastStoreSyncResourceVersion calls LastStoreSyncResourceVersionFunc if
// defined.
func (f *FakeCustomStore) LastStoreSyncResourceVersion() string {
	if f.LastStoreSyncResourceVersionFunc != nil {
		return f.LastStoreSyncResourceVersionFunc()
	}
	return ""
}
