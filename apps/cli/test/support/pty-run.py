"""Runs a command in a pseudo-terminal and answers its prompts, for the CLI's interactive tests.

Reads a JSON object on stdin: {"command": [...], "env": {...}, "cwd": "...", "script": [[prompt, reply], ...],
"timeout": seconds, "columns": n}. Each reply is typed once its prompt has appeared (after the previous one).
Prints {"output": everything the terminal showed, "exit_code": n, "unanswered": [prompts never seen]}.
"""
import fcntl, json, os, pty, select, struct, sys, termios, time

config = json.load(sys.stdin)
pid, fd = pty.fork()
if pid == 0:
    os.chdir(config.get("cwd", "."))
    os.execvpe(config["command"][0], config["command"], config["env"])

fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 40, config.get("columns", 120), 0, 0))
script = list(config.get("script", []))
output = b""
searched_from = 0
deadline = time.time() + config.get("timeout", 30)
while time.time() < deadline:
    if script and script[0][0].encode() in output[searched_from:]:
        searched_from = output.index(script[0][0].encode(), searched_from) + len(script[0][0])
        os.write(fd, script.pop(0)[1].encode())
    ready, _, _ = select.select([fd], [], [], 0.1)
    if fd in ready:
        try:
            chunk = os.read(fd, 4096)
        except OSError:  # EIO: the child has exited and the terminal is closed
            break
        if not chunk:
            break
        output += chunk
else:
    os.kill(pid, 9)

_, status = os.waitpid(pid, 0)
code = os.WEXITSTATUS(status) if os.WIFEXITED(status) else 128 + os.WTERMSIG(status)
print(json.dumps({"output": output.decode("utf-8", "replace"), "exit_code": code, "unanswered": [p for p, _ in script]}))
