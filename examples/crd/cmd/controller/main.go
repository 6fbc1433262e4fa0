// Command controller runs the example Widget status controller
// (examples/crd/controller) against a Kubernetes API server on which the
// example CRDs (config/crd) are installed.
//
// Usage:
//
//	controller [--kubeconfig=PATH] [--master=URL] [--namespaces=a,b] [--workers=N] [klog flags]
//
// Without --kubeconfig and --master it uses the in-cluster configuration
// (the service account of the pod it runs in). SIGINT or SIGTERM shuts it
// down gracefully: workers finish the Widgets they hold, informers stop.
//
// Exit codes: 0 after a graceful shutdown (or -h), 1 when the controller
// cannot start or fails, 2 for invalid command-line arguments.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/klog/v2"

	"github.com/informer-gen/informer-gen/examples/crd/controller"
	"github.com/informer-gen/informer-gen/examples/crd/pkg/generated/clientset/versioned"
	"github.com/informer-gen/informer-gen/examples/crd/pkg/generated/informers/externalversions"
)

// Exit codes of the command.
const (
	exitOK    = 0
	exitError = 1
	exitUsage = 2
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stderr)
	stop()
	os.Exit(code)
}

// run parses args, runs the controller until ctx is done and returns the
// process exit code. Usage errors are written to stderr; everything else is
// logged through klog.
func run(ctx context.Context, args []string, stderr io.Writer) int {
	fs := flag.NewFlagSet("controller", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var o options
	o.register(fs)
	klog.InitFlags(fs)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	if err := o.validate(fs); err != nil {
		fmt.Fprintf(stderr, "controller: %v\n", err)
		fs.Usage()
		return exitUsage
	}
	defer klog.Flush()

	logger := klog.Background().WithName("widget-controller")
	ctx = klog.NewContext(ctx, logger)
	if err := runController(ctx, o); err != nil {
		logger.Error(err, "Controller failed")
		return exitError
	}
	logger.Info("Controller shut down")
	return exitOK
}

// runController builds the client, informers and controller described by
// o and runs them until ctx is done.
func runController(ctx context.Context, o options) error {
	cfg, err := o.restConfig()
	if err != nil {
		return err
	}
	client, err := versioned.NewForConfig(cfg)
	if err != nil {
		return fmt.Errorf("create clientset: %w", err)
	}
	informers := externalversions.NewSharedInformerFactoryWithOptions(client, o.resync, o.factoryOptions()...)
	c := controller.New(client, informers, controller.Options{})
	// Start after New, which requests the Widget informer from the factory.
	informers.StartWithContext(ctx)
	defer informers.Shutdown()

	err = c.Run(ctx, o.workers)
	if err != nil && ctx.Err() != nil {
		// Asked to stop before the caches synced: still a clean shutdown.
		klog.FromContext(ctx).Info("Stopped before the caches synced", "reason", context.Cause(ctx))
		return nil
	}
	return err
}

// restConfig returns the API server configuration: in-cluster when neither
// --kubeconfig nor --master is set, otherwise built from them.
func (o options) restConfig() (*rest.Config, error) {
	var (
		cfg *rest.Config
		err error
	)
	if o.kubeconfig == "" && o.master == "" {
		cfg, err = rest.InClusterConfig()
		if err != nil {
			return nil, fmt.Errorf("no --kubeconfig or --master given and not running in a cluster: %w", err)
		}
	} else {
		cfg, err = clientcmd.BuildConfigFromFlags(o.master, o.kubeconfig)
		if err != nil {
			return nil, fmt.Errorf("build configuration from --kubeconfig=%q --master=%q: %w", o.kubeconfig, o.master, err)
		}
	}
	cfg.QPS = o.qps
	cfg.Burst = o.burst
	cfg.UserAgent = "informer-gen-example-controller"
	return cfg, nil
}

// defaultResync is how often every cached Widget is reconciled again even
// without a change.
const defaultResync = 10 * time.Minute
