package e2e

import (
	"context"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"

	informers "github.com/informer-gen/informer-gen/internal/corev1gen/informers/externalversions"
)

// Generated informers of k8s.io/api types decode the server's watch
// stream themselves (protowatch.Watcher). Against a real kube-apiserver,
// with the clientset's default content type (protobuf) and with a client
// configured for JSON, a Pod informer streams its initial list, follows
// creations, updates and deletions, and ends with the server's Pods.
func TestGeneratedPodInformerFollowsTheServerThroughItsOwnWatchDecoding(t *testing.T) {
	c := sharedCluster(t)
	for i, tc := range []struct {
		name        string
		contentType string
		streamed    string // the media type of the watch responses
	}{
		{"protobuf, the clientset's default", "", "application/vnd.kubernetes.protobuf;stream=watch"},
		{"a client configured for JSON", runtime.ContentTypeJSON, "application/json"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ns := fmt.Sprintf("pod-watch-%d-%d", i, time.Now().UnixNano()) // fresh under -count
			cfg := c.AdminConfig()
			createNamespaces(t, cfg, ns)
			cfg.ContentType = tc.contentType
			var mu sync.Mutex
			streamed := map[string]bool{}
			cfg.Wrap(func(rt http.RoundTripper) http.RoundTripper {
				return roundTripperFunc(func(req *http.Request) (*http.Response, error) {
					resp, err := rt.RoundTrip(req)
					if err == nil && req.URL.Query().Get("watch") == "true" {
						mu.Lock()
						streamed[resp.Header.Get("Content-Type")] = true
						mu.Unlock()
					}
					return resp, err
				})
			})
			kc, err := kubernetes.NewForConfig(cfg)
			if err != nil {
				t.Fatal(err)
			}
			pods := kc.CoreV1().Pods(ns)
			createPods(t, pods, "before", 5)

			f := informers.NewSharedInformerFactoryWithOptions(kc, 0, informers.WithNamespace(ns))
			lister := f.Core().V1().Pods().Lister()
			f.StartWithContext(t.Context())
			t.Cleanup(f.Shutdown)
			if res := f.WaitForCacheSyncWithContext(t.Context()); res.AsError() != nil {
				t.Fatal(res.AsError())
			}

			createPods(t, pods, "after", 5)
			for _, name := range []string{"before-0", "after-1"} {
				if _, err := pods.Patch(t.Context(), name, types.MergePatchType, []byte(`{"metadata":{"labels":{"changed":"yes"}}}`), metav1.PatchOptions{}); err != nil {
					t.Fatal(err)
				}
			}
			for _, name := range []string{"before-1", "after-2"} {
				if err := pods.Delete(t.Context(), name, metav1.DeleteOptions{GracePeriodSeconds: new(int64)}); err != nil {
					t.Fatal(err)
				}
			}

			var cached, onServer []string
			err = wait.PollUntilContextTimeout(t.Context(), 50*time.Millisecond, 30*time.Second, true, func(ctx context.Context) (bool, error) {
				list, err := pods.List(ctx, metav1.ListOptions{})
				if err != nil {
					return false, err
				}
				onServer = podVersions(list.Items)
				inCache, err := lister.Pods(ns).List(labels.Everything())
				if err != nil {
					return false, err
				}
				cached = cached[:0]
				for _, p := range inCache {
					cached = append(cached, p.Name+"@"+p.ResourceVersion+" "+p.Labels["changed"])
				}
				sort.Strings(cached)
				return strings.Join(cached, ",") == strings.Join(onServer, ","), nil
			})
			if err != nil {
				t.Fatalf("the cache holds %v, the server %v: %v", cached, onServer, err)
			}
			mu.Lock()
			defer mu.Unlock()
			if len(streamed) != 1 || !streamed[tc.streamed] {
				t.Errorf("watch responses were %v, want only %s", streamed, tc.streamed)
			}
		})
	}
}

// createPods creates n Pods named prefix-0 to prefix-(n-1).
func createPods(t *testing.T, pods interface {
	Create(context.Context, *corev1.Pod, metav1.CreateOptions) (*corev1.Pod, error)
}, prefix string, n int) {
	t.Helper()
	for j := range n {
		p := &corev1.Pod{
			ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("%s-%d", prefix, j), Labels: map[string]string{"app": prefix}},
			Spec: corev1.PodSpec{Containers: []corev1.Container{{
				Name: "app", Image: "registry.example/app:1", Args: []string{"--id=" + fmt.Sprint(j)},
			}}},
		}
		if _, err := pods.Create(t.Context(), p, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
}

// podVersions is each Pod's name, resourceVersion and "changed" label,
// sorted.
func podVersions(items []corev1.Pod) []string {
	out := make([]string, 0, len(items))
	for _, p := range items {
		out = append(out, p.Name+"@"+p.ResourceVersion+" "+p.Labels["changed"])
	}
	sort.Strings(out)
	return out
}
