// Package cache is controller-runtime's pkg/cache with one change: New
// defaults Options.NewInformer to informer-gen's
// controllerruntime.NewInformer. Every other name is controller-runtime's
// (aliases). The copy of controller-runtime's pkg/cache test suite in
// ../pkgcache imports it in place of controller-runtime's package, so that
// the suite runs on informer-gen's informer.
package cache

import (
	"os"

	"k8s.io/client-go/rest"
	crcache "sigs.k8s.io/controller-runtime/pkg/cache"

	"github.com/informer-gen/informer-gen/controllerruntime"
)

// The types of controller-runtime's pkg/cache.
type (
	// Cache is controller-runtime's cache.Cache.
	Cache = crcache.Cache
	// Options is controller-runtime's cache.Options.
	Options = crcache.Options
	// ByObject is controller-runtime's cache.ByObject.
	ByObject = crcache.ByObject
	// Config is controller-runtime's cache.Config.
	Config = crcache.Config
	// Informer is controller-runtime's cache.Informer.
	Informer = crcache.Informer
	// Informers is controller-runtime's cache.Informers.
	Informers = crcache.Informers
	// InformerGetOption is controller-runtime's cache.InformerGetOption.
	InformerGetOption = crcache.InformerGetOption
	// InformerGetOptions is controller-runtime's cache.InformerGetOptions.
	InformerGetOptions = crcache.InformerGetOptions
	// NewCacheFunc is controller-runtime's cache.NewCacheFunc.
	NewCacheFunc = crcache.NewCacheFunc
	// ErrCacheNotStarted is controller-runtime's cache.ErrCacheNotStarted.
	ErrCacheNotStarted = crcache.ErrCacheNotStarted
	// ErrResourceNotCached is controller-runtime's cache.ErrResourceNotCached.
	ErrResourceNotCached = crcache.ErrResourceNotCached
)

// AllNamespaces is controller-runtime's cache.AllNamespaces.
const AllNamespaces = crcache.AllNamespaces

// BlockUntilSynced is controller-runtime's cache.BlockUntilSynced.
func BlockUntilSynced(shouldBlock bool) InformerGetOption {
	return crcache.BlockUntilSynced(shouldBlock)
}

// TransformStripManagedFields is controller-runtime's
// cache.TransformStripManagedFields.
var TransformStripManagedFields = crcache.TransformStripManagedFields

// ClientGoInformerEnv is the environment variable that, set to "true",
// makes New leave opts.NewInformer alone: the suite then runs on
// client-go's informer, for comparison.
const ClientGoInformerEnv = "CRTEST_CLIENT_GO_INFORMER"

// New is controller-runtime's cache.New with opts.NewInformer, when nil,
// set to controllerruntime.NewInformer: what a user's one-option switch
// does (unless ClientGoInformerEnv is "true").
func New(cfg *rest.Config, opts Options) (Cache, error) {
	if opts.NewInformer == nil && os.Getenv(ClientGoInformerEnv) != "true" {
		opts.NewInformer = controllerruntime.NewInformer
	}
	return crcache.New(cfg, opts)
}
