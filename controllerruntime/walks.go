package controllerruntime

// Importing this package registers the compaction walks informer-gen
// generated for every k8s.io/api type (package kubeapi), so that
// NewInformer compacts the built-in types with them and the one option is
// the whole change for a controller-runtime user. The walks of the user's
// own API types come from informer-gen --walks-only.
import _ "github.com/informer-gen/informer-gen/controllerruntime/kubeapi"
