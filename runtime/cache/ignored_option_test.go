package cache

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/klog/v2"
	"k8s.io/klog/v2/ktesting"
)

// bufferedLogger returns a logger at verbosity v that keeps what it logs,
// and its buffer.
func bufferedLogger(t *testing.T, v int) (klog.Logger, ktesting.Buffer) {
	t.Helper()
	logger := ktesting.NewLogger(t, ktesting.NewConfig(ktesting.Verbosity(v), ktesting.BufferLogs(true)))
	return logger, logger.GetSink().(ktesting.Underlier).GetBuffer()
}

// refusingLW is a ListerWatcher whose lists and watches fail at once.
func refusingLW() *ListWatch {
	fail := errors.New("no server")
	return &ListWatch{
		ListWithContextFunc:  func(context.Context, metav1.ListOptions) (runtime.Object, error) { return nil, fail },
		WatchFuncWithContext: func(context.Context, metav1.ListOptions) (watch.Interface, error) { return nil, fail },
	}
}

// runStopped runs r with a context already cancelled: RunWithContext
// returns once it has started and seen the context done.
func runStopped(r *Reflector, logger klog.Logger) {
	ctx, cancel := context.WithCancel(klog.NewContext(context.Background(), logger))
	cancel()
	r.RunWithContext(ctx)
}

// Each option accepted for client-go compatibility and not used is logged
// at V(2), once however often it is set, and not at all when it is not set.
func TestIgnoredOptionsAreLoggedOnceAtV2WhenSet(t *testing.T) {
	for _, tc := range []struct {
		option *ignoredOption
		// use sets the option (or not, with set false) through the API.
		use func(logger klog.Logger, set bool)
	}{
		{option: ignoredInformerMinWatchTimeout, use: func(logger klog.Logger, set bool) {
			opts := InformerOptions{ListerWatcher: refusingLW(), ObjectType: &metav1.PartialObjectMetadata{}, Logger: &logger}
			if set {
				opts.MinWatchTimeout = time.Minute
			}
			NewInformerWithOptions(opts)
		}},
		{option: ignoredDeltaFIFOLogger, use: func(logger klog.Logger, set bool) {
			opts := DeltaFIFOOptions{KeyFunction: MetaNamespaceKeyFunc}
			if set {
				opts.Logger = &logger
			}
			NewDeltaFIFOWithOptions(opts)
		}},
		{option: ignoredThreadSafeStoreIndices, use: func(logger klog.Logger, set bool) {
			klog.SetLoggerWithOptions(logger, klog.ContextualLogger(true)) // NewThreadSafeStore logs to klog.Background()
			defer klog.ClearLogger()
			var indices Indices
			if set {
				indices = Indices{"by-namespace": index{}}
			}
			NewThreadSafeStore(Indexers{}, indices)
		}},
		{option: ignoredMaxInternalErrorRetryDuration, use: func(logger klog.Logger, set bool) {
			r := NewReflectorWithOptions(refusingLW(), &metav1.PartialObjectMetadata{}, NewStore(MetaNamespaceKeyFunc), ReflectorOptions{})
			if set {
				r.MaxInternalErrorRetryDuration = time.Minute
			}
			runStopped(r, logger)
		}},
		{option: ignoredBackoffSteps, use: func(logger klog.Logger, set bool) {
			backoff := wait.Backoff{Duration: time.Second, Factor: 2, Cap: time.Minute}
			if set {
				backoff.Steps = 5
			}
			r := NewReflectorWithOptions(refusingLW(), &metav1.PartialObjectMetadata{}, NewStore(MetaNamespaceKeyFunc), ReflectorOptions{Backoff: &backoff})
			runStopped(r, logger)
		}},
	} {
		t.Run(tc.option.name, func(t *testing.T) {
			tc.option.logged.Store(false) // another test may have logged it
			line := `option="` + tc.option.name + `"`

			quiet, quietBuf := bufferedLogger(t, 1)
			tc.use(quiet, true)
			if strings.Contains(quietBuf.String(), line) {
				t.Errorf("logged below V(2):\n%s", quietBuf.String())
			}

			unset, unsetBuf := bufferedLogger(t, 2)
			tc.use(unset, false)
			if strings.Contains(unsetBuf.String(), line) {
				t.Errorf("logged while not set:\n%s", unsetBuf.String())
			}

			logger, buf := bufferedLogger(t, 2)
			tc.use(logger, true)
			tc.use(logger, true)
			if got := strings.Count(buf.String(), line); got != 1 {
				t.Errorf("logged %d times at V(2) after being set twice, want once:\n%s", got, buf.String())
			}
			if !strings.Contains(buf.String(), tc.option.reason) {
				t.Errorf("the log does not give the reason %q:\n%s", tc.option.reason, buf.String())
			}
		})
	}
}
