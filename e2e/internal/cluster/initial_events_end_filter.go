package cluster

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"
)

// initialEventsEndFilter reads a JSON watch stream (a sequence of
// {"type": ..., "object": ...} frames) and passes every frame on, each
// followed by a newline as kube-apiserver writes them, except the BOOKMARK
// whose object is annotated k8s.io/initial-events-end: "true". A Read
// returns at most one frame, so a writer that flushes after each write
// flushes after each frame. It is not safe for concurrent use (an
// io.Reader is read by one goroutine).
type initialEventsEndFilter struct {
	body    io.ReadCloser
	dec     *json.Decoder
	pending []byte // what is left of the frame being passed on
	dropped func() // called for each initial-events-end bookmark dropped
}

func newInitialEventsEndFilter(body io.ReadCloser, dropped func()) *initialEventsEndFilter {
	return &initialEventsEndFilter{body: body, dec: json.NewDecoder(body), dropped: dropped}
}

// Read passes on the next frame, or the rest of the current one. Errors
// reading the stream are returned as they are (io.EOF at its end,
// context.Canceled when the request ended); a frame that is not a watch
// event is an error naming it.
func (f *initialEventsEndFilter) Read(p []byte) (int, error) {
	for len(f.pending) == 0 {
		var frame json.RawMessage
		if err := f.dec.Decode(&frame); err != nil {
			var syntax *json.SyntaxError
			if errors.As(err, &syntax) {
				return 0, fmt.Errorf("bookmark filter: the watch stream is not JSON at byte %d: %w", syntax.Offset, err)
			}
			return 0, err
		}
		end, err := isInitialEventsEnd(frame)
		if err != nil {
			return 0, err
		}
		if end {
			f.dropped()
			continue
		}
		f.pending = append(frame, '\n')
	}
	n := copy(p, f.pending)
	f.pending = f.pending[n:]
	return n, nil
}

// Close closes the stream being filtered.
func (f *initialEventsEndFilter) Close() error { return f.body.Close() }

// isInitialEventsEnd says whether frame is the bookmark that ends a watch
// list's initial events.
func isInitialEventsEnd(frame []byte) (bool, error) {
	var ev struct {
		Type   watch.EventType `json:"type"`
		Object struct {
			Metadata struct {
				Annotations map[string]string `json:"annotations"`
			} `json:"metadata"`
		} `json:"object"`
	}
	if err := json.Unmarshal(frame, &ev); err != nil {
		return false, fmt.Errorf("bookmark filter: watch frame %.100s is not a watch event: %w", frame, err)
	}
	return ev.Type == watch.Bookmark && ev.Object.Metadata.Annotations[metav1.InitialEventsAnnotationKey] == "true", nil
}
