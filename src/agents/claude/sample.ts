/**
 * A PreToolUse payload exactly as Claude Code 2.1.328 wrote it to a hook's stdin (captured offline;
 * ids kept, paths replaced by the demo's workspace at run time).
 */
export function sampleGuardCall(workspace: string): string {
	return JSON.stringify({
		session_id: "9e707540-21f2-4820-a4df-019d45e214df",
		transcript_path: `${workspace}/.home/.claude/projects/demo/9e707540-21f2-4820-a4df-019d45e214df.jsonl`,
		cwd: workspace,
		prompt_id: "071aa5c9-a8cf-45ab-a26e-b4580288a480",
		permission_mode: "default",
		effort: { level: "medium" },
		hook_event_name: "PreToolUse",
		tool_name: "Bash",
		tool_input: { command: "rm -rf data", description: "clean" },
		tool_use_id: "toolu_1",
	});
}
