/*
Copyright The informer-gen Authors.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.
*/

// Package controller holds the Gadget controller, as kubebuilder scaffolds
// internal/controller.
//
// Data flow: the manager's cache (informer-gen's informers, through
// cache.Options.NewInformer in cmd/main.go) watches Gadgets, ConfigMaps and
// Pods and compacts what it holds with the walks of api/v1 and of
// controllerruntime/kubeapi; an event of a Gadget, or of a ConfigMap or Pod
// it controls (Owns), queues the Gadget's key; GadgetReconciler.Reconcile
// reads the Gadget and its Pods from the cache (deep copies), writes the
// ConfigMap and Pods it asks for to the API server, and writes the
// Gadget's status.
package controller
