package chaos

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"

	stablev1 "github.com/informer-gen/informer-gen/examples/crd/apis/stable/v1"
	"github.com/informer-gen/informer-gen/examples/crd/pkg/generated/clientset/versioned"
)

// writer keeps up churn in the soak's namespace: it creates, updates and
// deletes Widgets, Pods and ConfigMaps, keeping about population of each,
// at rate writes per second. Its own random source is drawn from the
// seed, so the sequence of writes (not their timing) replays.
type writer struct {
	widgets    versioned.Interface
	kube       kubernetes.Interface
	ns         string
	population int
	rate       float64

	mu  sync.Mutex // held while a write runs; Pause takes it to stop the writer
	rnd *rand.Rand
	// writes counts the writes the server took, errors those that failed
	// otherwise than NotFound or AlreadyExists (server down, cut).
	writes atomic.Int64
	errors atomic.Int64
}

// run writes until ctx is done.
func (w *writer) run(ctx context.Context) {
	tick := time.NewTicker(time.Duration(float64(time.Second) / w.rate))
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		w.mu.Lock()
		err := w.writeOne(ctx)
		w.mu.Unlock()
		switch {
		case err == nil:
			w.writes.Add(1)
		case apierrors.IsNotFound(err) || apierrors.IsAlreadyExists(err):
			// A delete or update of a name the writer had deleted, a
			// create of one that exists: churn all the same, no write.
		default:
			w.errors.Add(1)
		}
	}
}

// pause stops the writer after its write in flight; resume lets it go on.
func (w *writer) pause()  { w.mu.Lock() }
func (w *writer) resume() { w.mu.Unlock() }

// writeOne creates, updates or deletes one object of a random kind.
// Called with w.mu held.
func (w *writer) writeOne(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	i := w.rnd.IntN(w.population)
	op := w.rnd.IntN(10) // 0: delete, 1-3: create, 4-9: update
	switch w.rnd.IntN(3) {
	case 0:
		return w.widget(ctx, fmt.Sprintf("w-%03d", i), op)
	case 1:
		return w.pod(ctx, fmt.Sprintf("p-%03d", i), op)
	default:
		return w.configMap(ctx, fmt.Sprintf("c-%03d", i), op)
	}
}

func (w *writer) widget(ctx context.Context, name string, op int) error {
	c := w.widgets.StableV1().Widgets(w.ns)
	switch {
	case op == 0:
		return c.Delete(ctx, name, metav1.DeleteOptions{})
	case op <= 3:
		_, err := c.Create(ctx, &stablev1.Widget{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{"app": "chaos"}},
			Spec: stablev1.WidgetSpec{Size: int32(w.rnd.IntN(5) - 1), Color: "red"}}, metav1.CreateOptions{})
		return err
	default:
		patch := fmt.Sprintf(`{"spec":{"size":%d}}`, w.rnd.IntN(5)-1)
		_, err := c.Patch(ctx, name, types.MergePatchType, []byte(patch), metav1.PatchOptions{})
		return err
	}
}

func (w *writer) pod(ctx context.Context, name string, op int) error {
	c := w.kube.CoreV1().Pods(w.ns)
	switch {
	case op == 0:
		return c.Delete(ctx, name, metav1.DeleteOptions{GracePeriodSeconds: new(int64)})
	case op <= 3:
		_, err := c.Create(ctx, &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{"app": "chaos"}},
			Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "registry.k8s.io/pause:3.10"}}}}, metav1.CreateOptions{})
		return err
	default:
		patch := fmt.Sprintf(`{"metadata":{"labels":{"round":"%d"}}}`, w.rnd.IntN(1000))
		_, err := c.Patch(ctx, name, types.MergePatchType, []byte(patch), metav1.PatchOptions{})
		return err
	}
}

func (w *writer) configMap(ctx context.Context, name string, op int) error {
	c := w.kube.CoreV1().ConfigMaps(w.ns)
	switch {
	case op == 0:
		return c.Delete(ctx, name, metav1.DeleteOptions{})
	case op <= 3:
		_, err := c.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: name},
			Data: map[string]string{"v": "0"}}, metav1.CreateOptions{})
		return err
	default:
		patch := fmt.Sprintf(`{"data":{"v":"%d"}}`, w.rnd.IntN(1000))
		_, err := c.Patch(ctx, name, types.MergePatchType, []byte(patch), metav1.PatchOptions{})
		return err
	}
}
