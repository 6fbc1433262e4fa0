package cache

import (
	"testing"
)

// TestStoreNamespaceIndexAgreesWithItsFunctionForNamesWithSlashes pins
// that the keyed write path, which files the namespace index without
// calling MetaNamespaceIndexFunc, files and unfiles an object under the
// same value as the function does, even when the object's name holds a
// '/' (its key then reads like another namespace's): a deleted object's
// id must not stay indexed, to return another object once reused.
func TestStoreNamespaceIndexAgreesWithItsFunctionForNamesWithSlashes(t *testing.T) {
	type writer struct {
		name string
		put  func(s *threadSafeStore, key string, obj any) error
	}
	type deleter struct {
		name string
		del  func(s *threadSafeStore, key string, obj any) error
	}
	writers := []writer{
		{"Add", func(s *threadSafeStore, _ string, obj any) error { return s.Add(obj) }},
		{"SwapKeyed", func(s *threadSafeStore, key string, obj any) error {
			_, _, _, err := s.SwapKeyed(key, obj, nil)
			return err
		}},
	}
	deleters := []deleter{
		{"Delete", func(s *threadSafeStore, _ string, obj any) error { return s.Delete(obj) }},
		{"DeleteKeyed", func(s *threadSafeStore, key string, _ any) error {
			if _, ok := s.DeleteKeyed(key); !ok {
				t.Fatalf("deleteKeyed(%q): not found", key)
			}
			return nil
		}},
	}
	objects := []struct {
		namespace, name string
	}{
		{"", "a/b"},   // cluster-scoped; key "a/b"
		{"ns", "x/y"}, // key "ns/x/y"
	}
	for _, o := range objects {
		for _, w := range writers {
			for _, d := range deleters {
				t.Run(o.namespace+"|"+o.name+"/"+w.name+"/"+d.name, func(t *testing.T) {
					s := newThreadSafeStore(MetaNamespaceKeyFunc, Indexers{NamespaceIndex: MetaNamespaceIndexFunc})
					obj := testObject(o.namespace, o.name, "1")
					key, _ := MetaNamespaceKeyFunc(obj)
					mustNoErr(t, w.put(s, key, obj))
					if got, _ := s.IndexKeys(NamespaceIndex, o.namespace); len(got) != 1 || got[0] != key {
						t.Fatalf("IndexKeys(%q) = %v after the write, want [%s]", o.namespace, got, key)
					}
					mustNoErr(t, d.del(s, key, obj))
					if vals := s.ListIndexFuncValues(NamespaceIndex); len(vals) != 0 {
						t.Fatalf("index values %v after the delete, want none", vals)
					}
					// The freed id is reused by another object.
					other := testObject("other", "z", "2")
					mustNoErr(t, s.Add(other))
					if got, _ := s.ByIndex(NamespaceIndex, o.namespace); len(got) != 0 {
						t.Fatalf("ByIndex(%q) = %v, want nothing", o.namespace, got)
					}
				})
			}
		}
	}
}
