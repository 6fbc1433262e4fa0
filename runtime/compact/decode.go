package compact

import (
	"hash/maphash"
	"unsafe"
)

// DecodedObject returns the number a decoder that interns as it decodes
// (InternBytes) gives the object it decodes, so that the admission filter
// tells its strings from other objects' as a walk's do.
func DecodedObject() uint64 { return objects.Add(1)%objectIDs + 1 }

// InternBytes returns the string b holds, for decoders that intern as they
// decode: the canonical copy when the string repeats one seen in another
// object (obj, from DecodedObject; the same admission as a walk's
// strings), a new string otherwise. It allocates nothing for a string
// that is canonical already and in the table's cache of recent strings.
// b is not retained.
func (t *Table) InternBytes(b []byte, obj uint64) string {
	if len(b) == 0 {
		return ""
	}
	x := maphash.Bytes(seed, b)
	slot := &t.strings[x>>(64-internCacheBits)]
	if c := slot.Load(); c != nil && *c == string(b) {
		return *c
	}
	// A decoded string has no address of its own yet: the object's
	// number stands for it, so repeats within one object stay out.
	if !t.admitWhere(x, obj<<objectBits|obj, obj) {
		return string(b)
	}
	// package unique copies a string it stores: the view is not kept.
	return t.canonicalString(x, unsafe.String(unsafe.SliceData(b), len(b)))
}
