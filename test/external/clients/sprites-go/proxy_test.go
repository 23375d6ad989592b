// sprites-go's ProxySocket to a listener on the sprite's IPv6 loopback, on the engines whose sprites run real
// programs (sandbox, container): the connection's remote address is the proxy's `target`, which newer sprites-go
// releases split with net.SplitHostPort — so it must be in Go's JoinHostPort form ([::1]:port), and the bytes must
// reach the listener and come back.
package clients

import (
	"bufio"
	"context"
	"net"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	sprites "github.com/superfly/sprites-go"
	"spritzer/spritzertest"
)

func TestProxySocketIPv6(t *testing.T) {
	engine := os.Getenv("SPRITZER_EXEC")
	if engine != "sandbox" && engine != "container" {
		t.Skipf("the %q engine runs no listeners (its proxy answers that nothing listens)", engine)
	}
	s := spritzertest.Start(t)
	client := sprites.New(s.Token, sprites.WithBaseURL(s.BaseURL))
	t.Cleanup(func() { _ = client.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	sprite, err := client.CreateSprite(ctx, "go-proxy6", nil)
	if err != nil {
		t.Fatalf("create: %v", err)
	}
	t.Cleanup(func() { _ = client.DeleteSprite(context.Background(), "go-proxy6") })

	const port = 8766
	// An echo server on ::1 only, started detached; it answers each line with "echo: <line>".
	server := `import socket
s = socket.socket(socket.AF_INET6, socket.SOCK_STREAM)
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("::1", ` + strconv.Itoa(port) + `))
s.listen(4)
while True:
    c, _ = s.accept()
    f = c.makefile("rwb")
    for line in f:
        f.write(b"echo: " + line)
        f.flush()
    c.close()
`
	write := sprite.CommandContext(ctx, "sh", "-c", `cat > /tmp/echo6.py && (nohup python3 /tmp/echo6.py >/tmp/echo6.log 2>&1 &)`)
	write.Stdin = strings.NewReader(server)
	if out, err := write.CombinedOutput(); err != nil {
		t.Fatalf("start the listener: %v %s", err, out)
	}

	var conn net.Conn
	for deadline := time.Now().Add(30 * time.Second); ; {
		conn, err = sprite.ProxySocket(ctx, "tcp", net.JoinHostPort("::1", strconv.Itoa(port)))
		if err == nil || time.Now().After(deadline) {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	if err != nil {
		t.Fatalf("ProxySocket([::1]:%d): %v", port, err)
	}
	defer conn.Close()
	host, p, err := net.SplitHostPort(conn.RemoteAddr().String())
	if err != nil || host != "::1" || p != strconv.Itoa(port) {
		t.Fatalf("the proxy's target %q does not split as Go's host:port: host %q port %q err %v", conn.RemoteAddr().String(), host, p, err)
	}
	if _, err := conn.Write([]byte("over ipv6\n")); err != nil {
		t.Fatalf("write: %v", err)
	}
	_ = conn.SetReadDeadline(time.Now().Add(20 * time.Second))
	line, err := bufio.NewReader(conn).ReadString('\n')
	if err != nil || line != "echo: over ipv6\n" {
		t.Fatalf("read back: %q %v", line, err)
	}
}
