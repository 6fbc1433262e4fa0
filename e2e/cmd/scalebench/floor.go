package main

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"log"
	"sync/atomic"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
)

// The floor variants take the streamed initial list of pods as the
// informers do (one watch with sendInitialEvents, protobuf) but keep
// nothing: their time until the initial-events-end bookmark is what the
// server, the connection and the decoding allow, and what an informer's
// keeping adds to. They measure the initial sync only.
//
//   - read-only reads the stream's frames and decodes none of them: the
//     pace of kube-apiserver and the connection;
//   - decode-only decodes every event with client-go's typed watch and
//     drops it: that pace plus client-go's decoding (client-go's informers
//     decode so; ours decode the stream themselves, protowatch.Watcher).
const (
	variantReadOnly   = "read-only"
	variantDecodeOnly = "decode-only"
)

// isFloor reports whether variant is one of the floor variants.
func isFloor(variant string) bool {
	return variant == variantReadOnly || variant == variantDecodeOnly
}

// floorClient is a floor variant's running watch: it stands for an
// informer in the child, synced once the initial-events-end bookmark
// arrived, and caches nothing.
type floorClient struct {
	// synced is set once the initial-events-end bookmark arrived.
	synced atomic.Bool
	// pods counts the pod events received before it.
	pods atomic.Int64
}

func (f *floorClient) HasSynced() bool                  { return f.synced.Load() }
func (f *floorClient) keys() []string                   { return nil }
func (f *floorClient) get(string) (metav1.Object, bool) { return nil, false }

// received is the number of pods the initial list brought.
func (f *floorClient) received() int { return int(f.pods.Load()) }

// watchListOptions are the options of a streamed initial list, as
// client-go's reflector sends them.
func watchListOptions() metav1.ListOptions {
	send := true
	return metav1.ListOptions{
		Watch: true, SendInitialEvents: &send, AllowWatchBookmarks: true,
		ResourceVersionMatch: metav1.ResourceVersionMatchNotOlderThan,
	}
}

// startFloor starts variant's watch of every pod over cfg.
func startFloor(variant string, cfg *rest.Config) (started, time.Time, error) {
	cs, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return started{}, time.Time{}, err
	}
	take := decodeInitialList
	if variant == variantReadOnly {
		take = readInitialList
	}
	ctx, cancel := context.WithCancel(context.Background())
	f := &floorClient{}
	t0 := time.Now()
	go func() {
		if err := take(ctx, cs, f); err != nil && ctx.Err() == nil {
			log.Printf("%s: %v", variant, err)
		}
	}()
	return started{f, cancel}, t0, nil
}

// decodeInitialList watches the pods through client-go's typed client,
// which decodes every event, and counts them until the bookmark.
func decodeInitialList(ctx context.Context, cs kubernetes.Interface, f *floorClient) error {
	w, err := cs.CoreV1().Pods("").Watch(ctx, watchListOptions())
	if err != nil {
		return err
	}
	defer w.Stop()
	for ev := range w.ResultChan() {
		switch ev.Type {
		case watch.Added:
			f.pods.Add(1)
		case watch.Bookmark:
			if m, ok := ev.Object.(metav1.Object); ok && m.GetAnnotations()[metav1.InitialEventsAnnotationKey] == "true" {
				f.synced.Store(true)
				return nil
			}
		default:
			return fmt.Errorf("unexpected %s event during the initial list: %v", ev.Type, ev.Object)
		}
	}
	return errors.New("the watch ended before the initial-events-end bookmark")
}

// readInitialList reads the protobuf watch stream of pods frame by frame
// (a 4-byte big-endian length, then a metav1.WatchEvent), looking only at
// each event's type, until the bookmark.
func readInitialList(ctx context.Context, cs kubernetes.Interface, f *floorClient) error {
	opts := watchListOptions()
	body, err := cs.CoreV1().RESTClient().Get().Resource("pods").
		VersionedParams(&opts, scheme.ParameterCodec).
		SetHeader("Accept", contentTypeProtobuf+";stream=watch").
		Stream(ctx)
	if err != nil {
		return err
	}
	defer body.Close()
	var size [4]byte
	frame := make([]byte, 64<<10)
	for {
		if _, err := io.ReadFull(body, size[:]); err != nil {
			return fmt.Errorf("read a frame's length: %w", err)
		}
		n := int(binary.BigEndian.Uint32(size[:]))
		if n > cap(frame) {
			frame = make([]byte, n)
		}
		frame = frame[:n]
		if _, err := io.ReadFull(body, frame); err != nil {
			return fmt.Errorf("read a frame of %d bytes: %w", n, err)
		}
		switch typ := watchEventType(frame); typ {
		case string(watch.Added):
			f.pods.Add(1)
		case string(watch.Bookmark):
			if bytes.Contains(frame, []byte(metav1.InitialEventsAnnotationKey)) {
				f.synced.Store(true)
				return nil
			}
		default:
			return fmt.Errorf("unexpected event type %q during the initial list", typ)
		}
	}
}

// watchEventType returns the type of the protobuf metav1.WatchEvent in
// frame: its field 1, a string, which the server writes first.
func watchEventType(frame []byte) string {
	const typeTag = 1<<3 | 2 // field 1, length-delimited
	if len(frame) < 2 || frame[0] != typeTag {
		return ""
	}
	n, k := binary.Uvarint(frame[1:])
	if k <= 0 || uint64(len(frame)-1-k) < n {
		return ""
	}
	return string(frame[1+k : 1+k+int(n)])
}
