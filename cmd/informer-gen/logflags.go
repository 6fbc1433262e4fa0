package main

import (
	"flag"
	"strconv"

	"github.com/spf13/pflag"
	"k8s.io/klog/v2"
)

// addKlogFlags adds klog's flags to fs, as upstream informer-gen and
// lister-gen register them (klog.InitFlags), so that they keep klog's
// meaning: they configure the log informer-gen writes through klog
// (ignored flags at -v=2, "Completed successfully." at -v=2). -v also sets
// *verbose, which the summary of a run reads. klog's settings are global
// to the process.
func addKlogFlags(fs *pflag.FlagSet, verbose *int) {
	gofs := flag.NewFlagSet("klog", flag.ContinueOnError)
	klog.InitFlags(gofs)
	gofs.VisitAll(func(f *flag.Flag) {
		if f.Name != "v" {
			fs.AddGoFlag(f)
		}
	})
	v := gofs.Lookup("v")
	fs.VarP(&level{klog: v.Value, n: verbose}, "v", "v", "log level verbosity (klog's -v); 1 or more also prints a summary and timings of the run")
}

// level is the -v flag: klog's verbosity, also kept in n for this run.
type level struct {
	klog flag.Value
	n    *int
}

// String returns klog's current verbosity.
func (l *level) String() string { return l.klog.String() }

// Type is the value's name in the usage, as klog's.
func (l *level) Type() string { return "Level" }

// Set sets klog's verbosity and n; value is an integer.
func (l *level) Set(value string) error {
	if err := l.klog.Set(value); err != nil {
		return err
	}
	n, err := strconv.Atoi(value)
	*l.n = n
	return err
}
