package jsonwatch

import (
	"unsafe"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/informer-gen/informer-gen/runtime/compact"
)

// itemHints is what one LIST page's items were decoded into the compact
// object against (jsondecode.DecodeListCompact): for each item, by its
// index in the list's items, the version the informer will compact it
// against as compact.Decoded.Previous gave it while the item was being
// decoded. Used by one decode at a time, on its goroutine; a Lister
// reuses it for its next pages.
type itemHints struct {
	decoded compact.DecodedSession
	asked   []askedPrevious
}

// previous is the jsondecode.ItemPrevious of the page: it asks decoded
// for the version item i replaces and records the answer; an answer of
// another type than the item's is no version to decode against, and
// such an item is not handed over.
func (h *itemHints) previous(i int, root any) any {
	hint, key, ok := h.decoded.Previous(root)
	if i >= len(h.asked) {
		h.asked = append(h.asked, make([]askedPrevious, i+1-len(h.asked))...)
	}
	h.asked[i] = askedPrevious{asked: true, ok: ok, hint: hint, key: key}
	if hint != nil && typeWord(hint) != typeWord(root) {
		// Decoded against no version, not the informer's: not handed
		// over.
		h.asked[i].ok = false
		return nil
	}
	return hint
}

// adopt hands the items of list, of size bytes each, to the informer
// (compact.Decoded.AdoptCopied) with the version each was decoded
// against: the informer, which compacts the reflector's copy of each,
// then skips it when it compacts it against that very version. An item
// that asked for none was decoded with no previous version, and is
// handed over only when it has none. An item at the cached version (the
// hint's UID and resourceVersion) is not handed over: the informer keeps
// the cached object instead, and never takes it.
func (h *itemHints) adopt(list runtime.Object, size uintptr) {
	i := 0
	_ = meta.EachListItem(list, func(item runtime.Object) error {
		a := askedPrevious{}
		if i < len(h.asked) {
			a = h.asked[i]
		}
		i++
		if !a.asked {
			if hint, key, ok := h.decoded.Previous(item); ok && hint == nil {
				h.decoded.AdoptCopied(item, size, key, nil)
			}
			return nil
		}
		if a.ok && !sameVersion(item, a.hint) {
			h.decoded.AdoptCopied(item, size, a.key, a.hint)
		}
		return nil
	})
}

// sameVersion reports whether obj is at the version of hint: both have
// the same UID and the same, non-empty, resourceVersion (what the
// informer's queue tells an unchanged listed object by).
func sameVersion(obj, hint any) bool {
	if hint == nil {
		return false
	}
	a, errA := meta.Accessor(obj)
	b, errB := meta.Accessor(hint)
	return errA == nil && errB == nil && a.GetResourceVersion() != "" &&
		a.GetUID() == b.GetUID() && a.GetResourceVersion() == b.GetResourceVersion()
}

// typeWord is the type word of an interface value: the same for two
// values of the same dynamic type.
func typeWord(v any) unsafe.Pointer { return (*[2]unsafe.Pointer)(unsafe.Pointer(&v))[0] }
