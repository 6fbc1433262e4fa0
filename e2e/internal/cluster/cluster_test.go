package cluster

import (
	"os"
	"strconv"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
)

// The harness contract: the CRDs are served once Start returns; a killed
// and restarted API server keeps etcd's data and its certificates (so
// configurations made before still work); Stop leaves no process and no
// directory behind.
func TestClusterRestartKeepsDataAndStopCleansUp(t *testing.T) {
	if testing.Short() {
		t.Skip("starts etcd and kube-apiserver")
	}
	ctx := t.Context()
	c, err := Start(ctx, Options{})
	if err != nil {
		t.Fatal(err)
	}
	stopped := false
	t.Cleanup(func() {
		if !stopped {
			c.Stop()
		}
	})
	if err := c.waitServed(ctx); err != nil {
		t.Fatalf("CRDs not served after Start: %v", err)
	}
	kc, err := kubernetes.NewForConfig(c.AdminConfig())
	if err != nil {
		t.Fatal(err)
	}
	// hack/kube-binaries.sh stamps the pinned release into the binary.
	if v, err := kc.Discovery().ServerVersion(); err != nil || !strings.HasPrefix(v.GitVersion, "v1.36.") {
		t.Errorf("server version = %v, %v; want v1.36.x (hack/tools pins k8s.io/kubernetes v1.36.3)", v, err)
	}
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "harness"}}
	if _, err := kc.CoreV1().Namespaces().Create(ctx, ns, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}

	apiPID, err := findChild(c.env.ControlPlane.APIServer.Path, "--cert-dir="+c.certDir)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.RestartAPIServer(ctx); err != nil {
		t.Fatal(err)
	}
	newPID, err := findChild(c.env.ControlPlane.APIServer.Path, "--cert-dir="+c.certDir)
	if err != nil {
		t.Fatal(err)
	}
	if newPID == apiPID {
		t.Fatalf("kube-apiserver pid %d unchanged by RestartAPIServer", apiPID)
	}
	if _, err := kc.CoreV1().Namespaces().Get(ctx, "harness", metav1.GetOptions{}); err != nil {
		t.Fatalf("namespace created before the restart, read with the old config: %v", err)
	}

	etcdDir := c.env.ControlPlane.Etcd.DataDir
	etcdPID, err := findChild(c.env.ControlPlane.Etcd.Path, "--data-dir="+etcdDir)
	if err != nil {
		t.Fatal(err)
	}
	stopped = true
	if err := c.Stop(); err != nil {
		t.Fatal(err)
	}
	if err := c.Stop(); err != nil {
		t.Fatalf("second Stop: %v", err)
	}
	for name, pid := range map[string]int{"kube-apiserver": newPID, "etcd": etcdPID} {
		if _, err := os.Stat("/proc/" + strconv.Itoa(pid)); !os.IsNotExist(err) {
			t.Errorf("%s (pid %d) still running after Stop", name, pid)
		}
	}
	for _, dir := range []string{c.certDir, etcdDir} {
		if _, err := os.Stat(dir); !os.IsNotExist(err) {
			t.Errorf("%s still exists after Stop", dir)
		}
	}
}
