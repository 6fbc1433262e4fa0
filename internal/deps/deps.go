//go:build tools

// Package deps pins modules that the main module's packages are about to
// use, so concurrent work on them shares one go.mod. Remove an import here
// once a real package imports it.
package deps

import (
	_ "github.com/spf13/pflag"
	_ "go.uber.org/goleak"
	_ "golang.org/x/tools/imports"
	_ "k8s.io/gengo/v2"
	_ "k8s.io/klog/v2"
	_ "k8s.io/utils/clock"
	_ "k8s.io/apimachinery/pkg/util/wait"
)
