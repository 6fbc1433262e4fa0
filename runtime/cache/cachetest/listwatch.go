package cachetest

import (
	"context"
	"encoding/base64"
	"fmt"
	"reflect"
	"strconv"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
)

// List is ListWithContext with context.Background().
func (s *Server) List(opts metav1.ListOptions) (runtime.Object, error) {
	return s.ListWithContext(context.Background(), opts)
}

// Watch is WatchWithContext with context.Background().
func (s *Server) Watch(opts metav1.ListOptions) (watch.Interface, error) {
	return s.WatchWithContext(context.Background(), opts)
}

// ListWithContext returns a list (of the type given to NewServer) of
// copies of the objects that match opts' label and field selectors,
// sorted by key:
//
//   - ResourceVersion "" (a consistent read): the current objects, in
//     pages of opts.Limit objects when set, each but the last with a
//     continue token; a continue token lists the following page of the
//     same snapshot, or fails with 410 Gone once the history was
//     compacted past it;
//   - "0", or any resourceVersion with ResourceVersionMatch NotOlderThan
//     (served from the watch cache, which ignores Limit): the current
//     objects, in one page;
//   - N with ResourceVersionMatch Exact: the objects as they were at N, in
//     pages; 410 Gone when N is older than the compaction horizon.
//
// A resourceVersion the server has not reached fails with kube-apiserver's
// "Too large resource version" error. Field selectors may use
// metadata.name and metadata.namespace.
func (s *Server) ListWithContext(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error) {
	if err := s.lockAnswering(ctx); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	sel, err := parseSelectors(opts)
	if err != nil {
		return nil, err
	}
	s.lists++
	if err := s.failLists.take(); err != nil {
		return nil, err
	}
	at, after, paged, err := s.listPointLocked(opts)
	if err != nil {
		return nil, err
	}
	var items []runtime.Object
	for _, o := range sortedObjects(s.stateAtLocked(at)) {
		if sel.matches(o) && (after == "" || objectKey(o) > after) {
			items = append(items, o)
		}
	}
	list := reflect.New(s.listType.Elem()).Interface().(runtime.Object)
	lm, err := meta.ListAccessor(list)
	if err != nil {
		return nil, err
	}
	lm.SetResourceVersion(formatRV(at))
	if paged && opts.Limit > 0 && int64(len(items)) > opts.Limit {
		items = items[:opts.Limit]
		lm.SetContinue(formatContinue(at, objectKey(items[len(items)-1])))
	}
	if err := meta.SetList(list, copies(items)); err != nil {
		return nil, err
	}
	return list, nil
}

// initialEventsLocked are the ADDED events of the current objects sel
// matches, followed by the initial-events-end bookmark when endBookmark
// is set.
func (s *Server) initialEventsLocked(sel selectors, endBookmark bool) []watch.Event {
	var events []watch.Event
	for _, o := range sortedObjects(s.objects) {
		if sel.matches(o) {
			events = append(events, watch.Event{Type: watch.Added, Object: o})
		}
	}
	if endBookmark {
		events = append(events, watch.Event{Type: watch.Bookmark,
			Object: s.bookmarkLocked(map[string]string{metav1.InitialEventsAnnotationKey: "true"})})
	}
	return events
}

// listPointLocked is where a list with opts reads: the resourceVersion
// at, the key after which it starts (a continued list) and whether it is
// paged.
func (s *Server) listPointLocked(opts metav1.ListOptions) (at int64, after string, paged bool, err error) {
	at = s.rv
	switch {
	case opts.Continue != "":
		at, after, err = parseContinue(opts.Continue)
		if err != nil {
			return 0, "", false, err
		}
		paged = true
	case opts.ResourceVersion == "":
		paged = true
	default:
		rv, err := parseRV(opts.ResourceVersion)
		if err != nil {
			return 0, "", false, err
		}
		if rv > s.rv {
			return 0, "", false, errTooLarge(rv)
		}
		if opts.ResourceVersionMatch == metav1.ResourceVersionMatchExact {
			at, paged = rv, true
		}
	}
	if at < s.horizon && at != s.rv {
		return 0, "", false, apierrors.NewResourceExpired(fmt.Sprintf("resourceVersion %d is older than the history kept (%d)", at, s.horizon))
	}
	return at, after, paged, nil
}

// WatchWithContext starts a watch. ResourceVersion "" or "0" starts with
// ADDED events of the current objects (opts.SendInitialEvents asks for
// them whatever the resourceVersion, followed by a bookmark annotated
// k8s.io/initial-events-end); a resourceVersion N replays the changes
// after N, or delivers a single 410 Gone error event when N is older than
// the compaction horizon. The watch then follows the changes as they are
// made. Events of objects that do not match opts' selectors are left out;
// an object that starts or stops matching is ADDED or DELETED. Bookmarks
// are delivered only when opts.AllowWatchBookmarks is set.
//
// Events go over an unbuffered channel, from a goroutine per watch: the
// server never waits for a slow client, and an event has been received
// once the next one is sent. The watch ends when stopped, when ctx is
// done, or after CloseWatches or ExpireWatches once it delivered what was
// left. A resourceVersion the server has not reached fails with
// kube-apiserver's "Too large resource version" error.
func (s *Server) WatchWithContext(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
	if err := s.lockAnswering(ctx); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	sel, err := parseSelectors(opts)
	if err != nil {
		return nil, err
	}
	rv := int64(-1)
	if opts.ResourceVersion != "" && opts.ResourceVersion != "0" {
		if rv, err = parseRV(opts.ResourceVersion); err != nil {
			return nil, err
		}
	}
	s.watchCalls++
	if err := s.failWatches.take(); err != nil {
		return nil, err
	}
	if rv > s.rv {
		return nil, errTooLarge(rv)
	}
	w := &serverWatch{
		server:    s,
		ctx:       ctx,
		sel:       sel,
		bookmarks: opts.AllowWatchBookmarks,
		ch:        make(chan watch.Event),
		stop:      make(chan struct{}),
		end:       -1,
	}
	sendInitial := opts.SendInitialEvents != nil && *opts.SendInitialEvents
	switch {
	case rv < 0 || sendInitial:
		w.pending = s.initialEventsLocked(sel, sendInitial)
		w.cursor = s.base + len(s.log)
	case rv < s.horizon:
		w.cursor = s.base + len(s.log)
		w.end, w.endStatus = w.cursor, goneStatus()
	default:
		w.cursor = s.base + s.logIndexAfter(rv)
	}
	s.watches[w] = struct{}{}
	s.running.Add(1)
	go w.run()
	return w, nil
}

// stateAtLocked returns the objects as they were at resourceVersion rv
// (not older than the horizon), not copied.
func (s *Server) stateAtLocked(rv int64) map[string]runtime.Object {
	if rv == s.rv {
		return s.objects
	}
	state := make(map[string]runtime.Object, len(s.objects))
	for k, o := range s.objects {
		state[k] = o
	}
	for i := len(s.log) - 1; i >= 0 && s.log[i].rv > rv; i-- {
		e := s.log[i]
		switch e.typ {
		case watch.Added:
			delete(state, objectKey(e.obj))
		case watch.Modified, watch.Deleted:
			state[objectKey(e.prev)] = e.prev
		}
	}
	return state
}

// logIndexAfter returns the index in s.log of the first entry past rv.
func (s *Server) logIndexAfter(rv int64) int {
	i := len(s.log)
	for i > 0 && s.log[i-1].rv > rv {
		i--
	}
	return i
}

func objectKey(o runtime.Object) string {
	m, _ := meta.Accessor(o)
	return key(m.GetNamespace(), m.GetName())
}

// parseRV parses a request's resourceVersion.
func parseRV(rv string) (int64, error) {
	n, err := strconv.ParseInt(rv, 10, 64)
	if err != nil || n < 0 {
		return 0, apierrors.NewBadRequest(fmt.Sprintf("invalid resourceVersion %q", rv))
	}
	return n, nil
}

// formatContinue and parseContinue encode the snapshot's resourceVersion
// and the last key listed.
func formatContinue(rv int64, lastKey string) string {
	return base64.RawURLEncoding.EncodeToString([]byte(formatRV(rv) + "/" + lastKey))
}

func parseContinue(token string) (int64, string, error) {
	b, err := base64.RawURLEncoding.DecodeString(token)
	if err == nil {
		rvs, last, ok := strings.Cut(string(b), "/")
		if rv, err := strconv.ParseInt(rvs, 10, 64); ok && err == nil {
			return rv, last, nil
		}
	}
	return 0, "", apierrors.NewBadRequest(fmt.Sprintf("invalid continue token %q", token))
}

// selectors are a request's label and field selectors.
type selectors struct {
	labels labels.Selector
	fields fields.Selector
}

func parseSelectors(opts metav1.ListOptions) (selectors, error) {
	sel := selectors{labels: labels.Everything(), fields: fields.Everything()}
	var err error
	if opts.LabelSelector != "" {
		if sel.labels, err = labels.Parse(opts.LabelSelector); err != nil {
			return sel, apierrors.NewBadRequest(err.Error())
		}
	}
	if opts.FieldSelector != "" {
		if sel.fields, err = fields.ParseSelector(opts.FieldSelector); err != nil {
			return sel, apierrors.NewBadRequest(err.Error())
		}
		for _, r := range sel.fields.Requirements() {
			if r.Field != "metadata.name" && r.Field != "metadata.namespace" {
				return sel, apierrors.NewBadRequest(fmt.Sprintf("field selector on %q: cachetest supports metadata.name and metadata.namespace", r.Field))
			}
		}
	}
	return sel, nil
}

func (sel selectors) matches(o runtime.Object) bool {
	m, err := meta.Accessor(o)
	if err != nil {
		return false
	}
	return sel.labels.Matches(labels.Set(m.GetLabels())) &&
		sel.fields.Matches(fields.Set{"metadata.name": m.GetName(), "metadata.namespace": m.GetNamespace()})
}
