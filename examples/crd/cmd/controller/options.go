package main

import (
	"errors"
	"flag"
	"fmt"
	"strings"
	"time"

	stablev1 "github.com/informer-gen/informer-gen/examples/crd/apis/stable/v1"
	"github.com/informer-gen/informer-gen/examples/crd/pkg/generated/informers/externalversions"
	"github.com/informer-gen/informer-gen/runtime/factory"
	"github.com/informer-gen/informer-gen/shard"
)

// options are the command-line settings of the controller.
type options struct {
	kubeconfig string
	master     string
	namespaces namespaceList
	workers    int
	resync     time.Duration
	qps        float32
	burst      int
	// shard is this replica's static shard (--shard i/n); nil: every
	// Widget.
	shard *shard.Selector
}

// register defines the command's flags on fs, bound to o.
func (o *options) register(fs *flag.FlagSet) {
	fs.StringVar(&o.kubeconfig, "kubeconfig", "", "Path to a kubeconfig file. Without it and --master, the in-cluster configuration is used.")
	fs.StringVar(&o.master, "master", "", "Address of the Kubernetes API server; overrides the server in --kubeconfig.")
	fs.Var(&o.namespaces, "namespaces", "Comma-separated namespaces whose Widgets to reconcile; may be repeated. Empty means all namespaces.")
	fs.Var(&o.namespaces, "namespace", "Alias of --namespaces.")
	fs.IntVar(&o.workers, "workers", 2, "Number of Widgets reconciled concurrently.")
	fs.DurationVar(&o.resync, "resync", defaultResync, "How often every Widget is reconciled again without a change; 0 disables.")
	var qps float64
	fs.Func("kube-api-qps", "Queries per second allowed to the API server (default 50).", func(s string) error {
		_, err := fmt.Sscan(s, &qps)
		o.qps = float32(qps)
		return err
	})
	o.qps = 50
	fs.IntVar(&o.burst, "kube-api-burst", 100, "Burst of queries allowed to the API server.")
	fs.Func("shard", "This replica's static shard, i/n (0 <= i < n): it caches and reconciles only the Widgets whose UID hashes into the i-th of n equal parts, so n replicas, each with its own i, split the work. Server-side on Kubernetes 1.36+ with the ShardedListAndWatch feature gate, client-side filtering otherwise. Empty: every Widget.", o.setShard)
}

// setShard parses --shard's i/n.
func (o *options) setShard(value string) error {
	var i, n int
	if c, err := fmt.Sscanf(value, "%d/%d", &i, &n); err != nil || c != 2 || fmt.Sprintf("%d/%d", i, n) != value {
		return fmt.Errorf("want i/n, such as 0/3, got %q", value)
	}
	sel, err := shard.Part(shard.UID, i, n)
	if err != nil {
		return err
	}
	o.shard = &sel
	return nil
}

// validate checks the parsed flags and the absence of positional
// arguments.
func (o *options) validate(fs *flag.FlagSet) error {
	var errs []error
	if fs.NArg() > 0 {
		errs = append(errs, fmt.Errorf("unexpected arguments %q", fs.Args()))
	}
	if o.workers < 1 {
		errs = append(errs, fmt.Errorf("--workers must be at least 1, got %d", o.workers))
	}
	if o.resync < 0 {
		errs = append(errs, fmt.Errorf("--resync must not be negative, got %v", o.resync))
	}
	if o.qps <= 0 || o.burst < 1 {
		errs = append(errs, fmt.Errorf("--kube-api-qps and --kube-api-burst must be positive, got %v and %d", o.qps, o.burst))
	}
	return errors.Join(errs...)
}

// factoryOptions returns the informer factory options the flags ask for.
func (o *options) factoryOptions() []externalversions.SharedInformerOption {
	var opts []externalversions.SharedInformerOption
	if len(o.namespaces) > 0 {
		opts = append(opts, externalversions.WithNamespaces(o.namespaces...))
	}
	if o.shard != nil {
		opts = append(opts, externalversions.WithByObject(&stablev1.Widget{}, factory.ByObject{Shard: shard.Static(*o.shard)}))
	}
	return opts
}

// namespaceList is a flag.Value collecting namespaces from comma-separated
// lists, across repeated flags, dropping blanks and duplicates.
type namespaceList []string

// String returns the namespaces joined by commas.
func (l *namespaceList) String() string { return strings.Join(*l, ",") }

// Set adds the namespaces of a comma-separated list.
func (l *namespaceList) Set(value string) error {
	for ns := range strings.SplitSeq(value, ",") {
		ns = strings.TrimSpace(ns)
		if ns == "" || containsString(*l, ns) {
			continue
		}
		*l = append(*l, ns)
	}
	return nil
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
