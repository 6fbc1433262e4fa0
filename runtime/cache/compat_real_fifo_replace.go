package cache

import (
	"fmt"

	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/klog/v2"
)

// This file holds the RealFIFO's Replace and Resync.

// Replace queues a (re)list. With AtomicEvents it queues one ReplacedAll
// Delta. Otherwise it queues, in this order: a Deleted Delta with a
// DeletedFinalStateUnknown tombstone for each key queued (not as a delete)
// or known to the consumer's cache but missing from newItems, then a
// Replaced Delta of each new item. The first Replace, when it is the first
// write, makes up the initial list.
func (f *RealFIFO) Replace(newItems []any, resourceVersion string) error {
	f.lock.Lock()
	defer f.lock.Unlock()
	var err error
	if f.emitAtomicEvents {
		err = f.appendReplaceAllLocked(newItems, resourceVersion)
	} else {
		err = reconcileReplacement(f.logger, f.items, f.knownObjects, newItems, f.keyOf,
			func(obj DeletedFinalStateUnknown) error { return f.appendLocked(Deleted, true, obj) },
			func(obj any) error { return f.appendLocked(Replaced, false, obj) })
	}
	if err != nil {
		return err
	}
	if !f.populated {
		f.populated = true
		f.initialPopulationCount = len(f.items)
		f.checkSyncedLocked()
	}
	return nil
}

// appendReplaceAllLocked queues one ReplacedAll Delta of objs,
// transformed.
func (f *RealFIFO) appendReplaceAllLocked(objs []any, resourceVersion string) error {
	if f.transformer != nil {
		transformed := make([]any, len(objs))
		for i, obj := range objs {
			t, err := f.transformer(obj)
			if err != nil {
				return err
			}
			transformed[i] = t
		}
		objs = transformed
	}
	f.pushLocked(Delta{Type: ReplacedAll, Object: ReplacedAllInfo{ResourceVersion: resourceVersion, Objects: objs}})
	return nil
}

// reconcileReplacement calls onDelete for each key of queuedItems whose
// last Delta is not a delete and each key of knownObjects not queued, when
// newItems lacks the key, then onReplace for each new item.
func reconcileReplacement(logger klog.Logger, queuedItems []Delta, knownObjects KeyListerGetter, newItems []any,
	keyOf func(obj any) (string, error), onDelete func(obj DeletedFinalStateUnknown) error, onReplace func(obj any) error) error {
	newKeys := make(map[string]struct{}, len(newItems))
	for _, obj := range newItems {
		key, err := keyOf(obj)
		if err != nil {
			return KeyError{obj, err}
		}
		newKeys[key] = struct{}{}
	}
	var queuedKeys []string
	lastQueued := map[string]Delta{}
	for _, item := range queuedItems {
		key, err := keyOf(item.Object)
		if err != nil {
			return KeyError{item.Object, err}
		}
		if _, seen := lastQueued[key]; !seen {
			queuedKeys = append(queuedKeys, key)
		}
		lastQueued[key] = item
	}
	for _, key := range queuedKeys {
		if _, kept := newKeys[key]; kept || lastQueued[key].Type == Deleted {
			continue
		}
		if err := onDelete(DeletedFinalStateUnknown{Key: key, Obj: lastQueued[key].Object}); err != nil {
			return fmt.Errorf("couldn't enqueue object: %w", err)
		}
	}
	if err := deleteKnownMissing(logger, knownObjects, newKeys, lastQueued, onDelete); err != nil {
		return err
	}
	for _, obj := range newItems {
		if err := onReplace(obj); err != nil {
			return fmt.Errorf("couldn't enqueue object: %w", err)
		}
	}
	return nil
}

// deleteKnownMissing calls onDelete for each key of knownObjects neither
// in newKeys nor queued, with the known object (nil when it cannot be
// read).
func deleteKnownMissing(logger klog.Logger, knownObjects KeyListerGetter, newKeys map[string]struct{}, queued map[string]Delta, onDelete func(obj DeletedFinalStateUnknown) error) error {
	if knownObjects == nil {
		return nil
	}
	for _, key := range knownObjects.ListKeys() {
		if _, kept := newKeys[key]; kept {
			continue
		}
		if _, ok := queued[key]; ok {
			continue
		}
		obj, exists, err := knownObjects.GetByKey(key)
		if err != nil {
			obj = nil
			utilruntime.HandleErrorWithLogger(logger, err, "Error during lookup, placing DeleteFinalStateUnknown marker without object", "key", key)
		} else if !exists {
			obj = nil
			utilruntime.HandleErrorWithLogger(logger, nil, "Key does not exist in known objects store, placing DeleteFinalStateUnknown marker without object", "key", key)
		}
		if err := onDelete(DeletedFinalStateUnknown{Key: key, Obj: obj}); err != nil {
			return fmt.Errorf("couldn't enqueue object: %w", err)
		}
	}
	return nil
}

// Resync queues, with AtomicEvents, one SyncAll Delta; otherwise a Sync
// Delta of each object of the consumer's cache whose key is not queued.
func (f *RealFIFO) Resync() error {
	f.lock.Lock()
	defer f.lock.Unlock()
	if f.emitAtomicEvents {
		f.pushLocked(Delta{Type: SyncAll, Object: SyncAllInfo{}})
		return nil
	}
	if f.knownObjects == nil {
		return nil
	}
	queued := make(map[string]struct{}, len(f.items))
	for _, item := range f.items {
		key, err := f.keyOf(item.Object)
		if err != nil {
			return KeyError{item, err}
		}
		queued[key] = struct{}{}
	}
	for _, key := range f.knownObjects.ListKeys() {
		if _, ok := queued[key]; ok {
			continue // a queued change is newer than the cache
		}
		obj, exists, err := f.knownObjects.GetByKey(key)
		if err != nil {
			utilruntime.HandleErrorWithLogger(f.logger, err, "Unable to queue object for sync", "key", key)
			continue
		} else if !exists {
			utilruntime.HandleErrorWithLogger(f.logger, nil, "Key does not exist in known objects store, unable to queue object for sync", "key", key)
			continue
		}
		if err := f.appendLocked(Sync, true, obj); err != nil {
			return fmt.Errorf("couldn't queue object: %w", err)
		}
	}
	return nil
}
