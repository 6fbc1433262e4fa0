package conformance

import (
	"bytes"
	"context"
	"errors"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/rest"
	"k8s.io/utils/ptr"

	stablev1 "github.com/informer-gen/informer-gen/examples/crd/apis/stable/v1"
	versioned "github.com/informer-gen/informer-gen/examples/crd/pkg/generated/clientset/versioned"
	crdscheme "github.com/informer-gen/informer-gen/examples/crd/pkg/generated/clientset/versioned/scheme"
	"github.com/informer-gen/informer-gen/runtime/compact"
	"github.com/informer-gen/informer-gen/runtime/jsondecode"
	"github.com/informer-gen/informer-gen/runtime/jsonwatch"
)

// The LIST of a custom resource, as the generated Widget informer of
// examples/crd lists it (jsonwatch.Lister with the generated WidgetList
// decoder, the request sent by jsonwatch.GetList) and as client-go's typed
// client lists it (WidgetInterface.List), against the same server
// answers.

// listAnswer is what listServer answers every request with.
type listAnswer struct {
	status      int
	contentType string // none when empty
	body        string
}

// listServer is a server on 127.0.0.1 answering every request with one
// answer and recording what it was asked.
type listServer struct {
	answer listAnswer
	mu     sync.Mutex
	sent   []sentRequest // guarded by mu
}

func (s *listServer) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	s.mu.Lock()
	s.sent = append(s.sent, sentRequest{path: req.URL.Path, query: req.URL.Query().Encode(), accept: req.Header.Get("Accept")})
	s.mu.Unlock()
	if s.answer.contentType != "" {
		w.Header().Set("Content-Type", s.answer.contentType)
	}
	w.WriteHeader(s.answer.status)
	_, _ = w.Write([]byte(s.answer.body))
}

// requests returns and forgets the requests the server saw.
func (s *listServer) requests() []sentRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	sent := s.sent
	s.sent = nil
	return sent
}

// ourWidgetList lists as the generated Widget informer does (see
// newWidgetInformer in examples/crd); fast reports whether the list the
// generated decoder decoded was returned.
func ourWidgetList(t *testing.T, cs *versioned.Clientset, namespace string, opts metav1.ListOptions) (obj runtime.Object, err error, fast bool) {
	t.Helper()
	generated, ok := jsondecode.For[stablev1.WidgetList]()
	if !ok {
		t.Fatal("no generated WidgetList decoder registered")
	}
	var decoded *stablev1.WidgetList
	l := &jsonwatch.Lister[stablev1.WidgetList, *stablev1.WidgetList]{
		Get: func(ctx context.Context, opts metav1.ListOptions) (jsonwatch.Response, error) {
			return jsonwatch.GetList(ctx, cs.StableV1().RESTClient(), "widgets", namespace, opts, crdscheme.ParameterCodec)
		},
		List: func(context.Context, metav1.ListOptions) (*stablev1.WidgetList, error) {
			t.Fatal("the typed List was used")
			return nil, nil
		},
		Kind: stablev1.SchemeGroupVersion.WithKind("WidgetList"),
		Decode: func(d *jsondecode.Decoder, p *stablev1.WidgetList) {
			generated(d, p)
			decoded = p
		},
		Table: compact.NewTable(),
	}
	obj, err = l.ListWithContext(context.Background(), opts)
	list, ok := obj.(*stablev1.WidgetList)
	return obj, err, ok && decoded != nil && list == decoded
}

// sameList reports (and t.Errorf's) any difference between our list and
// error and client-go's: objects reflect.DeepEqual, errors of the same
// type and message (a Status error's whole Status).
func sameList(t *testing.T, got runtime.Object, gotErr error, want *stablev1.WidgetList, wantErr error) bool {
	t.Helper()
	same := true
	if !reflect.DeepEqual(got, runtime.Object(want)) {
		t.Errorf("list:\n ours      %#v\n client-go %#v", got, want)
		same = false
	}
	if (gotErr == nil) != (wantErr == nil) || (gotErr != nil && (reflect.TypeOf(gotErr) != reflect.TypeOf(wantErr) || gotErr.Error() != wantErr.Error())) {
		t.Errorf("error:\n ours      %T %v\n client-go %T %v", gotErr, gotErr, wantErr, wantErr)
		return false
	}
	var gotStatus, wantStatus apierrors.APIStatus
	if errors.As(gotErr, &gotStatus) && errors.As(wantErr, &wantStatus) && !reflect.DeepEqual(gotStatus.Status(), wantStatus.Status()) {
		t.Errorf("error status:\n ours      %#v\n client-go %#v", gotStatus.Status(), wantStatus.Status())
		same = false
	}
	return same
}

// widgetListBody is a WidgetList as the server's JSON serializer writes it.
func widgetListBody(t testing.TB, list *stablev1.WidgetList) string {
	t.Helper()
	info, _ := runtime.SerializerInfoForMediaType(crdscheme.Codecs.SupportedMediaTypes(), runtime.ContentTypeJSON)
	var b bytes.Buffer
	if err := info.Serializer.Encode(list, &b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// statusBody is a Status as the server writes it.
func statusBody(t testing.TB, code int32, reason metav1.StatusReason, message string) string {
	t.Helper()
	info, _ := runtime.SerializerInfoForMediaType(crdscheme.Codecs.SupportedMediaTypes(), runtime.ContentTypeJSON)
	var b bytes.Buffer
	if err := info.Serializer.Encode(&metav1.Status{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Status"}, Status: metav1.StatusFailure, Code: code, Reason: reason, Message: message}, &b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// compareLists lists through both clients against srv answering answer
// and reports whether they agree; fast is whether ours took the
// generated decoder.
func compareLists(t *testing.T, srv *listServer, cs *versioned.Clientset, answer listAnswer, opts metav1.ListOptions) (same, fast bool) {
	t.Helper()
	srv.answer = answer
	got, gotErr, fast := ourWidgetList(t, cs, "ns", opts)
	ours := srv.requests()
	want, wantErr := cs.StableV1().Widgets("ns").List(context.Background(), opts)
	theirs := srv.requests()
	if !reflect.DeepEqual(ours, theirs) {
		t.Errorf("requests:\n ours      %v\n client-go %v", ours, theirs)
		return false, fast
	}
	return sameList(t, got, gotErr, want, wantErr), fast
}

func newListServer(t *testing.T) (*listServer, *versioned.Clientset) {
	t.Helper()
	srv := &listServer{}
	hs := httptest.NewServer(srv)
	t.Cleanup(hs.Close)
	cs, err := versioned.NewForConfig(&rest.Config{Host: hs.URL, QPS: -1})
	if err != nil {
		t.Fatal(err)
	}
	return srv, cs
}

func testWidgetList() *stablev1.WidgetList {
	return &stablev1.WidgetList{
		TypeMeta: metav1.TypeMeta{APIVersion: "stable.example.com/v1", Kind: "WidgetList"},
		ListMeta: metav1.ListMeta{ResourceVersion: "42", Continue: "eyJ2IjoibWV0YS5rOHMuaW8vdjEifQ", RemainingItemCount: ptr.To[int64](7)},
		Items:    []stablev1.Widget{*testWidget("a", "10"), *testWidget("b", "11"), *testWidget("c", "12")},
	}
}

func TestJSONListDecodesWhatClientGoDecodes(t *testing.T) {
	page := widgetListBody(t, testWidgetList())
	last := widgetListBody(t, &stablev1.WidgetList{TypeMeta: metav1.TypeMeta{APIVersion: "stable.example.com/v1", Kind: "WidgetList"}, ListMeta: metav1.ListMeta{ResourceVersion: "43"}, Items: []stablev1.Widget{*testWidget("d", "13")}})
	empty := widgetListBody(t, &stablev1.WidgetList{TypeMeta: metav1.TypeMeta{APIVersion: "stable.example.com/v1", Kind: "WidgetList"}, ListMeta: metav1.ListMeta{ResourceVersion: "44"}, Items: []stablev1.Widget{}})
	expired := statusBody(t, http.StatusGone, metav1.StatusReasonExpired, "The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.")
	forbidden := statusBody(t, http.StatusForbidden, metav1.StatusReasonForbidden, `widgets.stable.example.com is forbidden: User "x" cannot list resource "widgets"`)
	const jsonType = runtime.ContentTypeJSON
	ok := func(body string) listAnswer { return listAnswer{http.StatusOK, jsonType, body} }
	for _, tc := range []struct {
		name   string
		answer listAnswer
		opts   metav1.ListOptions
		fast   bool
	}{
		{"a first page: items, resourceVersion, continue and remainingItemCount", ok(page), metav1.ListOptions{Limit: 3}, true},
		{"the last page of a continued list", ok(last), metav1.ListOptions{Limit: 3, Continue: "eyJ2IjoibWV0YS5rOHMuaW8vdjEifQ"}, true},
		{"an empty list", ok(empty), metav1.ListOptions{ResourceVersion: "0"}, true},
		{"a whole list with a selector", ok(page), metav1.ListOptions{LabelSelector: "app=a", FieldSelector: "metadata.name!=x", ResourceVersion: "40", ResourceVersionMatch: metav1.ResourceVersionMatchNotOlderThan, TimeoutSeconds: ptr.To[int64](30)}, true},
		{"a JSON content type with parameters", listAnswer{http.StatusOK, jsonType + "; charset=utf-8", page}, metav1.ListOptions{}, true},
		{"no content type: the client's", listAnswer{http.StatusOK, "", page}, metav1.ListOptions{}, false},
		{"items null", ok(swap(t, empty, `"items":[]`, `"items":null`)), metav1.ListOptions{}, true},
		{"no items member", ok(swap(t, empty, `,"items":[]`, ``)), metav1.ListOptions{}, true},
		{"unknown members are dropped", ok(swap(t, page, `"items":[`, `"extra":{"a":[1,null]},"items":[`)), metav1.ListOptions{}, true},
		{"items repeated: the last one counts, into the first one's array", ok(swap(t, last, `"items":[`, `"items":[{"metadata":{"name":"x","labels":{"k":"v"}}},{}],"items":[`)), metav1.ListOptions{}, true},
		{"410 Expired on a continue token", listAnswer{http.StatusGone, jsonType, expired}, metav1.ListOptions{Limit: 3, Continue: "old"}, false},
		{"403 Forbidden", listAnswer{http.StatusForbidden, jsonType, forbidden}, metav1.ListOptions{}, false},
		{"a 500 with a text body", listAnswer{http.StatusInternalServerError, "text/plain", "boom"}, metav1.ListOptions{}, false},
		{"a 406 Not Acceptable", listAnswer{http.StatusNotAcceptable, jsonType, statusBody(t, http.StatusNotAcceptable, metav1.StatusReasonNotAcceptable, "only the following media types are accepted: application/json")}, metav1.ListOptions{}, false},
		{"a 415 Unsupported Media Type without a body", listAnswer{http.StatusUnsupportedMediaType, "", ""}, metav1.ListOptions{}, false},
		{"a Status with code 200 and status Failure", ok(forbidden), metav1.ListOptions{}, false},
		{"a Status of success", ok(swap(t, forbidden, `"Failure"`, `"Success"`)), metav1.ListOptions{}, false},
		{"a protobuf content type", listAnswer{http.StatusOK, runtime.ContentTypeProtobuf, page}, metav1.ListOptions{}, false},
		{"a content type no serializer has", listAnswer{http.StatusOK, "text/html", page}, metav1.ListOptions{}, false},
		{"a content type that does not parse", listAnswer{http.StatusOK, "application/json;;=", page}, metav1.ListOptions{}, false},
		{"an empty body", ok(""), metav1.ListOptions{}, false},
		{"a body of white space", ok(" \n"), metav1.ListOptions{}, false},
		{"null", ok("null"), metav1.ListOptions{}, false},
		{"an array", ok("[" + page + "]"), metav1.ListOptions{}, false},
		{"not JSON", ok("{not json}"), metav1.ListOptions{}, false},
		{"a body cut short", ok(page[:len(page)/2]), metav1.ListOptions{}, false},
		{"garbage after the list", ok(page + "}"), metav1.ListOptions{}, false},
		{"a second document after the list", ok(page + page), metav1.ListOptions{}, false},
		{"white space after the list", ok(page + "\n\t "), metav1.ListOptions{}, true},
		{"a list of another kind", ok(swap(t, page, `"kind":"WidgetList"`, `"kind":"GadgetList"`)), metav1.ListOptions{}, false},
		{"a list of another version", ok(swap(t, page, `"kind":"WidgetList","apiVersion":"stable.example.com/v1"`, `"kind":"WidgetList","apiVersion":"stable.example.com/v2"`)), metav1.ListOptions{}, false},
		{"an apiVersion that does not parse", ok(swap(t, page, `"kind":"WidgetList","apiVersion":"stable.example.com/v1"`, `"kind":"WidgetList","apiVersion":"a/b/c"`)), metav1.ListOptions{}, false},
		{"a list without a kind", ok(swap(t, page, `"kind":"WidgetList",`, ``)), metav1.ListOptions{}, false},
		{"a kind spelt in another case beside the kind", ok(swap(t, page, `"kind":"WidgetList",`, `"kind":"WidgetList","Kind":"GadgetList",`)), metav1.ListOptions{}, false},
		{"an item's kind in another case is the item's own", ok(swap(t, page, `"kind":"Widget",`, `"kind":"Widget","KIND":"Gadget",`)), metav1.ListOptions{}, true},
		{"metadata that is not an object", ok(swap(t, page, `"metadata":{"resourceVersion":"42"`, `"metadata":[],"x":{"resourceVersion":"42"`)), metav1.ListOptions{}, false},
		{"remainingItemCount of the wrong JSON kind", ok(swap(t, page, `"remainingItemCount":7`, `"remainingItemCount":"7"`)), metav1.ListOptions{}, false},
		{"an item of the wrong JSON kind", ok(swap(t, page, `"size":3`, `"size":"3"`)), metav1.ListOptions{}, false},
		{"an item that is not an object", ok(swap(t, last, `"items":[`, `"items":[7,`)), metav1.ListOptions{}, false},
		{"escapes and invalid UTF-8 in strings", ok(swap(t, page, `"red"`, "\"r\\u00e9d\xff\\ud800\"")), metav1.ListOptions{}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv, cs := newListServer(t)
			if _, fast := compareLists(t, srv, cs, tc.answer, tc.opts); fast != tc.fast {
				t.Errorf("the generated decoder's list returned: %v, want %v", fast, tc.fast)
			}
		})
	}
}

// swap replaces the first old in s by new; old must be there.
func swap(t *testing.T, s, old, new string) string {
	t.Helper()
	if !strings.Contains(s, old) {
		t.Fatalf("%q is not in %s", old, s)
	}
	return strings.Replace(s, old, new, 1)
}

// TestJSONListDecodesCorruptBodiesAsClientGoDoes changes random bytes of
// a valid page (or cuts it) and compares what the two clients make of
// it.
func TestJSONListDecodesCorruptBodiesAsClientGoDoes(t *testing.T) {
	valid := widgetListBody(t, testWidgetList())
	alphabet := []byte(`{}[]":,0123456789 \tabcdeklnrstuvxADEIKLMW-.eE+\` + "\n\xff")
	rnd := rand.New(rand.NewPCG(5, 6))
	srv, cs := newListServer(t)
	fast := 0
	for i := range 1500 {
		body := []byte(valid)
		for range 1 + rnd.IntN(3) {
			body[rnd.IntN(len(body))] = alphabet[rnd.IntN(len(alphabet))]
		}
		body = body[:len(body)-rnd.IntN(4)]
		same, f := compareLists(t, srv, cs, listAnswer{http.StatusOK, runtime.ContentTypeJSON, string(body)}, metav1.ListOptions{Limit: 3})
		if !same {
			t.Fatalf("body %d (%q) decodes differently", i, body)
		}
		if f {
			fast++
		}
	}
	// Most changed bytes leave a valid page (in a string, a number).
	if fast == 0 {
		t.Error("no corrupted page took the generated decoder")
	}
	t.Logf("%d of 1500 corrupted pages decoded by the generated decoder", fast)
}
