package main

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	gatewayclient "sigs.k8s.io/gateway-api/pkg/client/clientset/versioned"
	"sigs.k8s.io/yaml"
)

// The Gateway API module whose types, generated clientset and informers,
// and HTTPRoute CRD (its standard channel's YAML, as the project ships
// it) the httproute-* variants use.
const (
	gatewayAPIModule = "sigs.k8s.io/gateway-api"
	httpRouteCRDFile = "config/crd/standard/gateway.networking.k8s.io_httproutes.yaml"
)

var crdGVR = schema.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"}

// routeWorkload is n HTTPRoutes spread over namespaces round-robin
// (routeAt), written through the Gateway API's generated clientset.
type routeWorkload struct {
	n          int
	namespaces []string
	cs         kubernetes.Interface
	gw         gatewayclient.Interface
	dyn        dynamic.Interface
}

func newRouteWorkload(cfg *rest.Config, cs kubernetes.Interface, n, namespaces int) (routeWorkload, error) {
	w := routeWorkload{n: n, cs: cs}
	for k := range namespaces {
		w.namespaces = append(w.namespaces, fmt.Sprintf("routes-%02d", k))
	}
	var err error
	if w.gw, err = gatewayclient.NewForConfig(cfg); err != nil {
		return w, err
	}
	w.dyn, err = dynamic.NewForConfig(cfg)
	return w, err
}

func (w routeWorkload) resource() string    { return resourceHTTPRoutes }
func (w routeWorkload) size() int           { return w.n }
func (w routeWorkload) namespaceCount() int { return len(w.namespaces) }

func (w routeWorkload) ref(i int) (namespace, name string) {
	r := routeAt(w.namespaces, i)
	return r.namespace, r.name
}

// create installs the HTTPRoute CRD, makes the namespaces and writes every
// route as Helm and the Gateway implementation would: Helm creates it
// (validated strictly against the CRD's schema, so a field the schema
// does not have fails the run), the controller writes its status.
func (w routeWorkload) create(ctx context.Context, workers int) error {
	if err := installCRD(ctx, w.dyn, httpRouteCRDFile); err != nil {
		return err
	}
	for _, ns := range w.namespaces {
		_, err := w.cs.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}, metav1.CreateOptions{})
		if err != nil && !apierrors.IsAlreadyExists(err) {
			return err
		}
	}
	start := time.Now()
	if err := createEach(ctx, w.n, workers, resourceHTTPRoutes, w.createOne); err != nil {
		return err
	}
	log.Printf("populate: %d HTTPRoutes in %d namespaces in %v", w.n, len(w.namespaces), time.Since(start).Round(time.Second))
	return nil
}

// createOne writes route i with its two managers.
func (w routeWorkload) createOne(ctx context.Context, i int) error {
	r := routeAt(w.namespaces, i)
	routes := w.gw.GatewayV1().HTTPRoutes(r.namespace)
	created, err := routes.Create(ctx, httpRoute(r), metav1.CreateOptions{FieldManager: helmManager, FieldValidation: metav1.FieldValidationStrict})
	if err != nil {
		return fmt.Errorf("create HTTPRoute %s/%s: %w", r.namespace, r.name, err)
	}
	created.Status = routeStatus(r, created.Generation)
	if _, err := routes.UpdateStatus(ctx, created, metav1.UpdateOptions{FieldManager: gatewayManager, FieldValidation: metav1.FieldValidationStrict}); err != nil {
		return fmt.Errorf("status of HTTPRoute %s/%s: %w", r.namespace, r.name, err)
	}
	return nil
}

// label patches route namespace/name as Helm upgrading the release.
func (w routeWorkload) label(ctx context.Context, namespace, name string, patch []byte) (types.UID, string, error) {
	r, err := w.gw.GatewayV1().HTTPRoutes(namespace).Patch(ctx, name, types.MergePatchType, patch, metav1.PatchOptions{FieldManager: helmManager})
	if err != nil {
		return "", "", err
	}
	return r.UID, r.ResourceVersion, nil
}

func (w routeWorkload) managedFields(ctx context.Context, namespace, name string) ([]metav1.ManagedFieldsEntry, error) {
	r, err := w.gw.GatewayV1().HTTPRoutes(namespace).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return nil, err
	}
	return r.ManagedFields, nil
}

// installCRD creates the CRD of file (relative to the Gateway API
// module's folder) and waits until it is established and its resource
// served.
func installCRD(ctx context.Context, dyn dynamic.Interface, file string) error {
	crd, err := readCRD(file)
	if err != nil {
		return err
	}
	if _, err := dyn.Resource(crdGVR).Create(ctx, crd, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
		return fmt.Errorf("create CRD %s: %w", crd.GetName(), err)
	}
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		got, err := dyn.Resource(crdGVR).Get(ctx, crd.GetName(), metav1.GetOptions{})
		if err == nil && established(got) {
			log.Printf("CRD %s established (%s)", crd.GetName(), file)
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("CRD %s not established within a minute (last error: %v)", crd.GetName(), err)
		case <-tick.C:
		}
	}
}

// established reports whether crd has the condition Established=True.
func established(crd *unstructured.Unstructured) bool {
	conds, _, _ := unstructured.NestedSlice(crd.Object, "status", "conditions")
	for _, c := range conds {
		if m, ok := c.(map[string]any); ok && m["type"] == "Established" && m["status"] == "True" {
			return true
		}
	}
	return false
}

// readCRD reads the CRD of file in the Gateway API module this binary was
// built with.
func readCRD(file string) (*unstructured.Unstructured, error) {
	dir, err := moduleDir(gatewayAPIModule)
	if err != nil {
		return nil, err
	}
	path := filepath.Join(dir, file)
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read the HTTPRoute CRD: %w", err)
	}
	obj := map[string]any{}
	if err := yaml.Unmarshal(data, &obj); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	crd := &unstructured.Unstructured{Object: obj}
	if crd.GetKind() != "CustomResourceDefinition" {
		return nil, fmt.Errorf("%s: kind %q, want CustomResourceDefinition", path, crd.GetKind())
	}
	return crd, nil
}

// moduleDir is the folder of module path, at the version this binary was
// built with, in the module cache (`go mod download`, a no-op when it is
// there already).
func moduleDir(path string) (string, error) {
	version := moduleVersion(path)
	out, err := exec.Command("go", "mod", "download", "-json", path+"@"+version).Output()
	if err != nil {
		return "", fmt.Errorf("go mod download %s@%s: %w", path, version, err)
	}
	var m struct{ Dir, Error string }
	if err := json.Unmarshal(out, &m); err != nil {
		return "", fmt.Errorf("go mod download %s@%s: %w", path, version, err)
	}
	if m.Error != "" || m.Dir == "" {
		return "", fmt.Errorf("go mod download %s@%s: no folder (%s)", path, version, m.Error)
	}
	return m.Dir, nil
}
