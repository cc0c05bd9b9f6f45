// Minimal Node.js language host for the Pulumi engine ("pulumi-language-nodejs").
//
// Used by test/pulumi-cli/install.sh only when the Go module proxy does not serve Pulumi's own
// language host module (github.com/pulumi/pulumi/sdk/nodejs/cmd/pulumi-language-nodejs/v3) at the
// commit of the release. It implements just what `pulumi up/preview/refresh/destroy` need for a
// JavaScript or TypeScript program whose dependencies are already installed:
//
//   - Handshake / GetPluginInfo / About
//   - GetRequiredPlugins / GetRequiredPackages: always empty (no plugin auto-install; dynamic
//     providers run through pulumi-resource-pulumi-nodejs, which needs no plugin download)
//   - Run: spawns `node [nodeargs] <@pulumi/pulumi/cmd/run> --monitor ... <entry point> [args]`
//     with PULUMI_CONFIG / PULUMI_CONFIG_SECRET_KEYS / PULUMI_NODEJS_* in its environment, like
//     Pulumi's host does.
//
// Not implemented (the engine treats them as unsupported): InstallDependencies, GetProgramDependencies,
// RunPlugin (Node.js component providers), code generation, policy packs, debugger attach.
//
// The file is compiled inside the generated wrapper module (.pulumi-cli/build), which requires
// github.com/pulumi/pulumi/sdk/v3 at the CLI's release. It is not a Go package of this repository.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"

	"github.com/pulumi/pulumi/sdk/v3/go/common/util/rpcutil"
	"github.com/pulumi/pulumi/sdk/v3/go/common/version"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/protobuf/types/known/emptypb"
	"google.golang.org/protobuf/types/known/structpb"
)

// Exit code with which @pulumi/pulumi/cmd/run reports that it already printed an actionable error.
const exitAfterActionableMessage = 32

type host struct {
	pulumirpc.UnimplementedLanguageRuntimeServer

	mu            sync.Mutex
	engineAddress string
	tracing       string
}

func main() {
	tracing := flag.String("tracing", "", "Zipkin-compatible tracing endpoint (passed on to the program)")
	// Flags Pulumi's own host accepts; parsed so that a caller passing them does not fail.
	flag.Bool("typescript", true, "ignored: use the project's runtime option 'typescript'")
	flag.String("root", "", "ignored")
	flag.String("binary", "", "ignored")
	flag.String("nodeargs", "", "ignored: use the project's runtime option 'nodeargs'")
	flag.Parse()

	h := &host{tracing: *tracing}
	if args := flag.Args(); len(args) > 0 {
		h.engineAddress = args[0]
	}

	handle, err := rpcutil.ServeWithOptions(rpcutil.ServeOptions{
		Init: func(srv *grpc.Server) error {
			pulumirpc.RegisterLanguageRuntimeServer(srv, h)
			return nil
		},
	})
	if err != nil {
		fmt.Fprintf(os.Stderr, "pulumi-language-nodejs: could not start the gRPC server: %v\n", err)
		os.Exit(1)
	}
	// The engine reads the port from the first line of stdout.
	fmt.Printf("%d\n", handle.Port)
	if err := <-handle.Done; err != nil {
		fmt.Fprintf(os.Stderr, "pulumi-language-nodejs: gRPC server stopped: %v\n", err)
		os.Exit(1)
	}
}

func (h *host) Handshake(
	_ context.Context, req *pulumirpc.LanguageHandshakeRequest,
) (*pulumirpc.LanguageHandshakeResponse, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if req.GetEngineAddress() != "" {
		h.engineAddress = req.GetEngineAddress()
	}
	return &pulumirpc.LanguageHandshakeResponse{}, nil
}

func (h *host) GetPluginInfo(context.Context, *emptypb.Empty) (*pulumirpc.PluginInfo, error) {
	return &pulumirpc.PluginInfo{Version: version.Version}, nil
}

func (h *host) GetRequiredPlugins(
	context.Context, *pulumirpc.GetRequiredPluginsRequest,
) (*pulumirpc.GetRequiredPluginsResponse, error) {
	return &pulumirpc.GetRequiredPluginsResponse{}, nil
}

func (h *host) GetRequiredPackages(
	context.Context, *pulumirpc.GetRequiredPackagesRequest,
) (*pulumirpc.GetRequiredPackagesResponse, error) {
	return &pulumirpc.GetRequiredPackagesResponse{}, nil
}

func (h *host) About(ctx context.Context, _ *pulumirpc.AboutRequest) (*pulumirpc.AboutResponse, error) {
	node, err := exec.LookPath("node")
	if err != nil {
		return nil, fmt.Errorf("could not find node on the $PATH: %w", err)
	}
	out, err := exec.CommandContext(ctx, node, "--version").Output()
	if err != nil {
		return nil, fmt.Errorf("running node --version: %w", err)
	}
	return &pulumirpc.AboutResponse{
		Executable: node,
		Version:    strings.TrimPrefix(strings.TrimSpace(string(out)), "v"),
		Metadata:   map[string]string{"languageHost": "test/pulumi-cli/langhost (minimal)"},
	}, nil
}

// runtimeOptions reads the `runtime.options` of Pulumi.yaml that matter for running a program.
type runtimeOptions struct {
	typescript bool
	tsconfig   string
	nodeargs   []string
}

func parseOptions(s *structpb.Struct) runtimeOptions {
	opts := runtimeOptions{typescript: true}
	if s == nil {
		return opts
	}
	m := s.AsMap()
	if v, ok := m["typescript"].(bool); ok {
		opts.typescript = v
	}
	if v, ok := m["tsconfig"].(string); ok {
		opts.tsconfig = v
	}
	if v, ok := m["nodeargs"].(string); ok {
		opts.nodeargs = strings.Fields(v)
	}
	return opts
}

// resolveRunScript finds @pulumi/pulumi/cmd/run the way Node would from the program directory.
func resolveRunScript(ctx context.Context, node, dir string) (string, error) {
	if p := os.Getenv("PULUMI_LANGUAGE_NODEJS_RUN_PATH"); p != "" {
		return p, nil
	}
	cmd := exec.CommandContext(ctx, node, "-e",
		"process.stdout.write(require.resolve('@pulumi/pulumi/cmd/run'))")
	cmd.Dir = dir
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("it looks like the Pulumi SDK has not been installed in %s "+
			"(could not resolve @pulumi/pulumi/cmd/run: %v %s); have you run npm install?",
			dir, err, strings.TrimSpace(stderr.String()))
	}
	return strings.TrimSpace(string(out)), nil
}

func (h *host) Run(ctx context.Context, req *pulumirpc.RunRequest) (*pulumirpc.RunResponse, error) {
	node, err := exec.LookPath("node")
	if err != nil {
		return nil, fmt.Errorf("could not find node on the $PATH: %w", err)
	}

	info := req.GetInfo()
	opts := parseOptions(info.GetOptions())
	pwd := req.GetPwd()
	programDir := info.GetProgramDirectory()
	if programDir == "" {
		programDir = pwd
	}
	if programDir == "" {
		if programDir, err = os.Getwd(); err != nil {
			return nil, err
		}
	}

	runScript, err := resolveRunScript(ctx, node, programDir)
	if err != nil {
		return nil, err
	}

	h.mu.Lock()
	engine := h.engineAddress
	h.mu.Unlock()

	args := append([]string{}, opts.nodeargs...)
	args = append(args, runScript)
	add := func(flagName, value string) {
		if value != "" {
			args = append(args, "--"+flagName, value)
		}
	}
	add("monitor", req.GetMonitorAddress())
	add("engine", engine)
	add("organization", req.GetOrganization())
	add("project", req.GetProject())
	add("root-directory", info.GetRootDirectory())
	add("stack", req.GetStack())
	add("pwd", pwd)
	if req.GetDryRun() {
		args = append(args, "--dry-run")
	}
	if req.GetParallel() > 0 {
		add("parallel", fmt.Sprint(req.GetParallel()))
	}
	add("tracing", h.tracing)
	program := req.GetProgram()
	if program == "" {
		program = "."
	}
	args = append(args, program)
	args = append(args, req.GetArgs()...)

	config := req.GetConfig()
	if config == nil {
		config = map[string]string{}
	}
	configJSON, err := json.Marshal(config)
	if err != nil {
		return nil, fmt.Errorf("serializing config: %w", err)
	}
	secretKeys := req.GetConfigSecretKeys()
	if secretKeys == nil {
		secretKeys = []string{}
	}
	secretKeysJSON, err := json.Marshal(secretKeys)
	if err != nil {
		return nil, fmt.Errorf("serializing secret config keys: %w", err)
	}

	env := append(os.Environ(),
		"PULUMI_CONFIG="+string(configJSON),
		"PULUMI_CONFIG_SECRET_KEYS="+string(secretKeysJSON),
		fmt.Sprintf("PULUMI_NODEJS_TYPESCRIPT=%t", opts.typescript),
	)
	if opts.tsconfig != "" {
		env = append(env, "PULUMI_NODEJS_TSCONFIG_PATH="+filepath.Join(programDir, opts.tsconfig))
	}

	cmd := exec.CommandContext(ctx, node, args...)
	cmd.Dir = programDir
	if pwd != "" {
		cmd.Dir = pwd
	}
	cmd.Env = env
	cmd.Stdout = os.Stdout
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		var exitErr *exec.ExitError
		if errors.As(err, &exitErr) {
			if exitErr.ExitCode() == exitAfterActionableMessage {
				return &pulumirpc.RunResponse{Bail: true}, nil
			}
			return &pulumirpc.RunResponse{
				Error: fmt.Sprintf("Program exited with non-zero exit code: %d", exitErr.ExitCode()),
			}, nil
		}
		return &pulumirpc.RunResponse{
			Error: fmt.Sprintf("Problem executing program (could not run language executor): %v", err),
		}, nil
	}
	return &pulumirpc.RunResponse{}, nil
}
