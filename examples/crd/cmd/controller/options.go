package main

import (
	"errors"
	"flag"
	"fmt"
	"strings"
	"time"

	"github.com/informer-gen/informer-gen/examples/crd/pkg/generated/informers/externalversions"
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
	if len(o.namespaces) == 0 {
		return nil
	}
	return []externalversions.SharedInformerOption{externalversions.WithNamespaces(o.namespaces...)}
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
