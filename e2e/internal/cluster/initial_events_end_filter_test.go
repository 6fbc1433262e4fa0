package cluster

import (
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

const (
	added1   = `{"type":"ADDED","object":{"kind":"Widget","metadata":{"name":"a","resourceVersion":"11"}}}`
	added2   = `{"type":"ADDED","object":{"kind":"Widget","metadata":{"name":"b","resourceVersion":"12"}}}`
	modified = `{"type":"MODIFIED","object":{"kind":"Widget","metadata":{"name":"a","resourceVersion":"14"}}}`
	endMark  = `{"type":"BOOKMARK","object":{"kind":"Widget","metadata":{"resourceVersion":"13","annotations":{"k8s.io/initial-events-end":"true"}}}}`
	bookmark = `{"type":"BOOKMARK","object":{"kind":"Widget","metadata":{"resourceVersion":"15"}}}`
	// Not the end of the initial events: the annotation is not "true", or
	// the event is not a bookmark.
	endFalse      = `{"type":"BOOKMARK","object":{"kind":"Widget","metadata":{"resourceVersion":"13","annotations":{"k8s.io/initial-events-end":"false"}}}}`
	addedMarked   = `{"type":"ADDED","object":{"kind":"Widget","metadata":{"name":"c","resourceVersion":"16","annotations":{"k8s.io/initial-events-end":"true"}}}}`
	statusFrame   = `{"type":"ERROR","object":{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"Expired","code":410}}`
	prettyEndMark = "{\n  \"type\": \"BOOKMARK\",\n  \"object\": {\"metadata\": {\"annotations\": {\"k8s.io/initial-events-end\": \"true\"}}}\n}"
)

func lines(frames ...string) string {
	var b strings.Builder
	for _, f := range frames {
		b.WriteString(f + "\n")
	}
	return b.String()
}

func TestInitialEventsEndFilterDropsOnlyTheInitialEventsEndBookmark(t *testing.T) {
	tests := []struct {
		name      string
		in        string
		want      string
		wantDrops int
		wantErr   string // empty: the stream ends with io.EOF
	}{
		{name: "empty stream", in: "", want: ""},
		{
			name:      "initial events, their end, then changes",
			in:        lines(added1, added2, endMark, modified, bookmark),
			want:      lines(added1, added2, modified, bookmark),
			wantDrops: 1,
		},
		{
			name:      "empty collection: the end bookmark alone",
			in:        lines(endMark),
			want:      "",
			wantDrops: 1,
		},
		{
			name: "bookmarks without the annotation, or not true, pass",
			in:   lines(bookmark, endFalse, added1),
			want: lines(bookmark, endFalse, added1),
		},
		{
			name: "an object carrying the annotation that is not a bookmark passes",
			in:   lines(addedMarked),
			want: lines(addedMarked),
		},
		{
			name: "error events pass",
			in:   lines(added1, statusFrame),
			want: lines(added1, statusFrame),
		},
		{
			name:      "frames without separators, or spread over lines, are split",
			in:        added1 + endMark + added2 + " \t" + prettyEndMark + "\r\n" + modified,
			want:      lines(added1, added2, modified),
			wantDrops: 2,
		},
		{
			name:    "a frame that is not JSON fails the stream after the frames before it",
			in:      lines(added1, `{"type":`+"\x00"),
			want:    lines(added1),
			wantErr: "the watch stream is not JSON",
		},
		{
			name:    "a frame that is not a watch event fails the stream",
			in:      lines(added1, `42`),
			want:    lines(added1),
			wantErr: "watch frame 42 is not a watch event",
		},
		{
			name:    "a stream cut inside a frame ends with io.ErrUnexpectedEOF",
			in:      added1 + "\n" + endMark[:40],
			want:    lines(added1),
			wantErr: io.ErrUnexpectedEOF.Error(),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			drops := 0
			// One byte per read from the server: frames must be whole
			// however they arrive.
			body := io.NopCloser(iotest.OneByteReader(strings.NewReader(tt.in)))
			got, err := io.ReadAll(newInitialEventsEndFilter(body, func() { drops++ }))
			if string(got) != tt.want {
				t.Errorf("frames out:\n%s\nwant:\n%s", got, tt.want)
			}
			if drops != tt.wantDrops {
				t.Errorf("%d bookmarks dropped, want %d", drops, tt.wantDrops)
			}
			switch {
			case tt.wantErr == "" && err != nil:
				t.Errorf("error %v, want the stream to end cleanly", err)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Errorf("error %v, want one saying %q", err, tt.wantErr)
			}
		})
	}
}

// A Read returns at most one frame (so each write of the proxy, flushed,
// is at most one frame), and a frame larger than the caller's buffer is
// returned over several reads.
func TestInitialEventsEndFilterReadsAtMostOneFramePerRead(t *testing.T) {
	f := newInitialEventsEndFilter(io.NopCloser(strings.NewReader(lines(added1, endMark, added2))), func() {})
	for _, want := range []string{added1 + "\n", added2 + "\n"} {
		buf := make([]byte, 4096)
		n, err := f.Read(buf)
		if err != nil || string(buf[:n]) != want {
			t.Fatalf("Read = %q, %v; want %q", buf[:n], err, want)
		}
	}
	if n, err := f.Read(make([]byte, 10)); n != 0 || err != io.EOF {
		t.Fatalf("Read at the end = %d, %v; want 0, io.EOF", n, err)
	}

	f = newInitialEventsEndFilter(io.NopCloser(strings.NewReader(lines(added1))), func() {})
	var got []byte
	small := make([]byte, 7)
	for {
		n, err := f.Read(small)
		got = append(got, small[:n]...)
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if string(got) != added1+"\n" {
		t.Fatalf("read in 7-byte pieces: %q, want %q", got, added1+"\n")
	}
}
