package cache

// UndeltaStore is a Store that hands its whole content to PushFunc after
// every change: each successful Add, Update, Delete and Replace is followed
// by one call of PushFunc with List(). It is safe for concurrent use, and
// so must PushFunc be. Two concurrent changes may both push the content
// holding both, so PushFunc may see the same content twice. A Reflector
// can feed it, to mirror a resource as complete snapshots.
//
// Compatibility code, kept for code written against client-go: the informer
// does not use it.
type UndeltaStore struct {
	Store
	PushFunc func([]any)
}

var _ Store = &UndeltaStore{}

// Add stores obj and pushes the content.
func (u *UndeltaStore) Add(obj any) error {
	if err := u.Store.Add(obj); err != nil {
		return err
	}
	u.PushFunc(u.Store.List())
	return nil
}

// Update stores obj and pushes the content.
func (u *UndeltaStore) Update(obj any) error {
	if err := u.Store.Update(obj); err != nil {
		return err
	}
	u.PushFunc(u.Store.List())
	return nil
}

// Delete removes obj and pushes the content.
func (u *UndeltaStore) Delete(obj any) error {
	if err := u.Store.Delete(obj); err != nil {
		return err
	}
	u.PushFunc(u.Store.List())
	return nil
}

// Replace makes list the whole content and pushes it. The store takes
// ownership of list.
func (u *UndeltaStore) Replace(list []any, resourceVersion string) error {
	if err := u.Store.Replace(list, resourceVersion); err != nil {
		return err
	}
	u.PushFunc(u.Store.List())
	return nil
}

// NewUndeltaStore returns an empty UndeltaStore keyed by keyFunc, pushing
// to pushFunc.
func NewUndeltaStore(pushFunc func([]any), keyFunc KeyFunc) *UndeltaStore {
	return &UndeltaStore{
		Store:    NewStore(keyFunc),
		PushFunc: pushFunc,
	}
}
