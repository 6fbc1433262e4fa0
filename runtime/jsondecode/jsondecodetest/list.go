package jsondecodetest

import (
	"bytes"
	"fmt"
	"reflect"
	"runtime"
	"runtime/debug"
	"testing"

	"github.com/informer-gen/informer-gen/runtime/compact"
	"github.com/informer-gen/informer-gen/runtime/compact/compacttest"
	"github.com/informer-gen/informer-gen/runtime/jsondecode"
)

// ListSharesAsTheWalk is SharesAsTheWalk of LIST pages: pages are pages
// of JSON objects of T, in the order an informer lists them (a first
// list, then relists; no key twice in a page). Each page's items are
// decoded
//
//   - plainly (jsondecode.Unmarshal, no interning), then each compacted
//     by a Table's TransformUpdate against the version of its key cached
//     before the page (none on a first list, the cached one on a
//     relist), as an informer's queue compacts a listed page;
//   - into the compact object as the items of one list
//     (jsondecode.DecodeListCompact, each item against the same version
//     of its key as its previous version), with another Table;
//
// then cached. Both must be reflect.DeepEqual to the plain decoding, and
// their parts one address exactly where the other's are. It returns how
// many parts were shared.
func ListSharesAsTheWalk[T any](t *testing.T, fn jsondecode.Func[T], pages [][][]byte, key func(*T) string) int {
	t.Helper()
	if !jsondecode.Compacts[T]() {
		t.Fatalf("%T's decoder is not registered as building the compact object (jsondecode.RegisterCompact)", *new(T))
	}
	defer debug.SetGCPercent(debug.SetGCPercent(-1)) // as SharesAsTheWalk
	walked, decoded := compact.NewExactTable(), compact.NewExactTable()
	update := walked.TransformUpdate(new(T))
	walkedCache, decodedCache := map[string]*T{}, map[string]*T{}
	previous := func(_ int, root any) any {
		if old, ok := decodedCache[key(root.(*T))]; ok {
			return old
		}
		return nil
	}
	var want, got []compacttest.Part
	var kept [][]T // every object stays alive to the end
	for n, docs := range pages {
		var list itemList[T]
		if !jsondecode.DecodeListCompact(listOf(docs), &list, itemListDecoder(fn), decoded, previous, 0) {
			t.Fatalf("page %d: not decoded into the compact object", n)
		}
		if len(list.Items) != len(docs) {
			t.Fatalf("page %d: %d items decoded of %d", n, len(list.Items), len(docs))
		}
		ws := make([]T, len(docs))
		for i, doc := range docs {
			var plain T
			if err := jsondecode.Unmarshal(doc, &plain, fn, nil); err != nil {
				t.Fatalf("page %d, object %d: %v", n, i, err)
			}
			if err := jsondecode.Unmarshal(doc, &ws[i], fn, nil); err != nil {
				t.Fatalf("page %d, object %d: %v", n, i, err)
			}
			var hint any
			if old, ok := walkedCache[key(&ws[i])]; ok {
				hint = old
			}
			update(&ws[i], hint)
			if d := &list.Items[i]; !reflect.DeepEqual(&ws[i], &plain) || !reflect.DeepEqual(d, &plain) {
				t.Fatalf("page %d, object %d: decoded compact %+v, walked %+v, decoded %+v", n, i, d, &ws[i], &plain)
			}
			want = compacttest.Parts(reflect.ValueOf(&ws[i]).Elem(), fmt.Sprint(n, ".", i), want)
			got = compacttest.Parts(reflect.ValueOf(&list.Items[i]).Elem(), fmt.Sprint(n, ".", i), got)
		}
		for i := range docs {
			walkedCache[key(&ws[i])], decodedCache[key(&list.Items[i])] = &ws[i], &list.Items[i]
		}
		kept = append(kept, ws, list.Items)
	}
	shared := compacttest.Sharing(t, want, got)
	runtime.KeepAlive(kept)
	return shared
}

// itemList is a list of T as a server writes one: its items under
// "items".
type itemList[T any] struct {
	Items []T
}

// listOf is the JSON list of docs.
func listOf(docs [][]byte) []byte {
	return append(append([]byte(`{"kind":"List","metadata":{"resourceVersion":"1"},"items":[`), bytes.Join(docs, []byte(","))...), "]}"...)
}

// itemListDecoder is the generated shape of a list's decoder, of items
// decoded with fn.
func itemListDecoder[T any](fn jsondecode.Func[T]) jsondecode.Func[itemList[T]] {
	return func(d *jsondecode.Decoder, p *itemList[T]) {
		if !d.Object() {
			return
		}
		for name, ok := d.Field(); ok; name, ok = d.Field() {
			if string(name) == "items" {
				jsondecode.Slice(d, &p.Items, fn)
				continue
			}
			d.Skip()
		}
	}
}
