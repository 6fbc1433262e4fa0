package jsonwatch

import (
	"context"
	"mime"
	"reflect"
	"sync"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/informer-gen/informer-gen/runtime/compact"
	"github.com/informer-gen/informer-gen/runtime/jsondecode"
)

// Lister lists objects through the LIST request it sends with the
// clientset's REST client (GetList), and decodes a JSON response itself:
// the page, its ListMeta (resourceVersion, continue, remainingItemCount)
// and its items, decoded once by the list's generated decoder Decode,
// straight from the response body, each item's strings interned as a
// watch event's are. Where client-go would get another object or an
// error (an error status, a response in another format, a malformed
// body, a list of another kind), the response is decoded as client-go
// decodes it (Response.Into): the same object, the same error, from the
// same response.
//
// Generated informers of JSON types, when informer-gen generated their
// decoders, list through one, with Get calling GetList with the
// clientset's REST client and List the typed client's:
//
//	listWidgets := &jsonwatch.Lister[stablev1.WidgetList, *stablev1.WidgetList]{Get: get, List: typed, Kind: gvk, Decode: decodeWidgetList, Table: compact.Default()}
//	lw.ListWithContextFunc = listWidgets.ListWithContext
//
// Paging (Limit, Continue) and its errors (410 Expired on a continue
// token, which the Reflector answers with a full list) are the server's
// and client-go's: the options are sent as the typed List sends them and
// a Status error is the one client-go returns.
//
// A Lister is safe for concurrent use; its fields must not change after
// the first ListWithContext.
type Lister[L any, PL Object[L]] struct {
	// Get sends the typed List's request (GetList), or returns
	// ErrNoStream when the client cannot (a fake clientset, a wrapped
	// one).
	Get func(ctx context.Context, options metav1.ListOptions) (Response, error)
	// List is the typed client's List.
	List func(ctx context.Context, options metav1.ListOptions) (PL, error)
	// Kind is L's group, version and kind: a JSON response of this kind
	// is decoded by Decode.
	Kind schema.GroupVersionKind
	// Decode is L's generated JSON decoder (jsondecode.For); nil makes
	// every list the typed client's.
	Decode jsondecode.Func[L]
	// Table interns the strings Decode decodes (the informer's
	// compaction table); nil interns nothing.
	Table *compact.Table
	// Decoded, when set, is the informer's (SharedIndexInformerOptions.
	// Decoded of runtime/cache, the Watcher's too): once the informer
	// enabled it, the items of every list's pages are decoded into the
	// compact object (jsondecode.DecodeListCompact) when their kind's
	// decoder builds it, each against the version the informer will
	// compact it against (compact.Decoded.Previous: none for a first
	// list's items, the cached or queued version for a relist's), and
	// handed over (compact.Decoded.AdoptCopied): the informer does not
	// walk them, unless the version it compacts an item against is no
	// longer the one the item was decoded against. An item at the
	// cached version (its UID and resourceVersion), which the informer
	// keeps as cached, is not handed over.
	Decoded *compact.Decoded

	// items is what the list's items are, found once (itemsOf).
	itemsOnce sync.Once
	items     listItems
	// hints holds the *itemHints of pages decoded before, for reuse.
	hints sync.Pool
	// mu guards session: the session of the list being paged through,
	// begun at its first page (compact.DecodedSession).
	mu      sync.Mutex
	session compact.DecodedSession
}

// listItems is what a Lister's list holds: whether its items' decoder
// builds the compact object (jsondecode.CompactsType), and their size.
type listItems struct {
	compacts bool
	size     uintptr
}

// ListWithContext lists one page; it is a runtime/cache
// ListWithContextFunc. As the typed List, it returns the list (empty,
// not nil) with an error.
func (l *Lister[L, PL]) ListWithContext(ctx context.Context, options metav1.ListOptions) (runtime.Object, error) {
	if l.Decode == nil {
		return l.List(ctx, options)
	}
	res, err := l.Get(ctx, options)
	if err != nil {
		// ErrNoStream: the typed client lists, with client-go's request.
		return l.List(ctx, options)
	}
	list, ok := l.decode(res, l.sessionOf(options))
	if ok {
		return list, nil
	}
	list = PL(new(L))
	return list, res.Into(list)
}

// decode decodes res with the generated decoder when it is a JSON
// response of L's kind whose decoding is certainly client-go's
// (jsondecode.DecodeList, then the list's kind is L's); the list then
// has an empty TypeMeta, as client-go's decoder leaves it.
func (l *Lister[L, PL]) decode(res Response, session compact.DecodedSession) (PL, bool) {
	if res.Err != nil || !isJSON(res.ContentType) {
		return nil, false
	}
	list := PL(new(L))
	var hints *itemHints
	if l.Table != nil && session.Enabled() && l.itemsOf().compacts {
		hints = l.itemHints(session)
		defer l.release(hints)
		if !jsondecode.DecodeListCompact(res.Body, (*L)(list), l.Decode, l.Table, hints.previous, session.Omit()) {
			return nil, false
		}
	} else if !jsondecode.DecodeList(res.Body, (*L)(list), l.Decode, l.Table) {
		return nil, false
	}
	// apimachinery finds the list's kind as GroupVersionKind parses it;
	// WithoutVersionDecoder then clears it.
	kind := list.GetObjectKind()
	if kind.GroupVersionKind() != l.Kind {
		return nil, false
	}
	kind.SetGroupVersionKind(schema.GroupVersionKind{})
	if hints != nil {
		hints.adopt(list, l.itemsOf().size)
	}
	return list, true
}

// sessionOf returns the session of the list whose page options asks
// for: a new one for its first page (no continue token), so that what
// the watch before it handed over is no hint for its items.
func (l *Lister[L, PL]) sessionOf(options metav1.ListOptions) compact.DecodedSession {
	l.mu.Lock()
	defer l.mu.Unlock()
	if options.Continue == "" {
		l.session = l.Decoded.Begin()
	}
	return l.session
}

// itemHints returns an empty itemHints of session, one a page before
// released when there is one.
func (l *Lister[L, PL]) itemHints(session compact.DecodedSession) *itemHints {
	h, ok := l.hints.Get().(*itemHints)
	if !ok {
		h = &itemHints{}
	}
	h.decoded = session
	return h
}

// release empties h, keeping no version alive, for the next page.
func (l *Lister[L, PL]) release(h *itemHints) {
	clear(h.asked)
	h.asked = h.asked[:0]
	h.decoded = compact.DecodedSession{}
	l.hints.Put(h)
}

// itemsOf finds, once, what L's items are: a struct type (its Items
// field's element) whose decoder builds the compact object.
func (l *Lister[L, PL]) itemsOf() listItems {
	l.itemsOnce.Do(func() {
		f, ok := reflect.TypeFor[L]().FieldByName("Items")
		if !ok || f.Type.Kind() != reflect.Slice || f.Type.Elem().Kind() != reflect.Struct {
			return
		}
		item := f.Type.Elem()
		l.items = listItems{compacts: jsondecode.CompactsType(item), size: item.Size()}
	})
	return l.items
}

// isJSON reports whether contentType is JSON's media type, the one the
// REST client decodes with the clientset's JSON serializer.
func isJSON(contentType string) bool {
	mediaType, _, err := mime.ParseMediaType(contentType)
	return err == nil && mediaType == runtime.ContentTypeJSON
}
