import {
	arr,
	callOf,
	FINAL_TEXT,
	type ModelApi,
	obj,
	pathKey,
	pickName,
	type RecordedRequest,
	type SeenToolResult,
	sse,
	sseResponse,
	type ToolStep,
} from "./types.ts";

/** The function responses in a Gemini `generateContent` request body. */
export function googleToolResults(body: unknown): SeenToolResult[] {
	const seen: SeenToolResult[] = [];
	for (const content of arr(obj(body).contents)) {
		for (const part of arr(obj(content).parts)) {
			const fr = obj(obj(part).functionResponse);
			if (!fr.name) continue;
			seen.push({ id: String(fr.id ?? fr.name), text: JSON.stringify(fr.response ?? null) });
		}
	}
	return seen;
}

/** Every function declaration the request offers. */
function declarations(body: Record<string, unknown>): Record<string, unknown>[] {
	return arr(body.tools)
		.flatMap((t) => arr(obj(t).functionDeclarations))
		.map(obj);
}

/** A value that satisfies a (Gemini or JSON) schema, for structured side calls such as the model router. */
export function sampleFor(schema: unknown): unknown {
	const s = obj(schema);
	if (arr(s.enum).length > 0) return arr(s.enum)[0];
	const type = String(s.type ?? "object").toLowerCase();
	if (type === "object") {
		const out: Record<string, unknown> = {};
		for (const [key, value] of Object.entries(obj(s.properties))) out[key] = sampleFor(value);
		return out;
	}
	if (type === "array") return [];
	if (type === "boolean") return false;
	if (type === "integer" || type === "number") {
		const min = Number(s.minimum ?? 1);
		const max = Number(s.maximum ?? 100);
		return Math.max(min, Math.min(max, 10));
	}
	return "mock";
}

/** The `functionCall` part for `step`, shaped after the declarations the client offered. */
function functionCall(step: ToolStep, decls: Record<string, unknown>[], id: string): Record<string, unknown> {
	const names = decls.map((d) => String(d.name));
	if (step.kind === "call") {
		const call = callOf(step, names, (n) => {
			const decl = decls.find((d) => d.name === n);
			return decl?.parametersJsonSchema ?? decl?.parameters;
		});
		return { id, name: call.name, args: call.args };
	}
	if (step.kind === "shell") {
		return { id, name: pickName(names, ["run_shell_command"]), args: { command: step.command, description: step.description ?? "run it" } };
	}
	const name = pickName(names, ["read_file"]);
	const decl = decls.find((d) => d.name === name);
	return { id, name, args: { [pathKey(decl?.parametersJsonSchema ?? decl?.parameters)]: step.path } };
}

/** One GenerateContentResponse holding `parts`. */
function reply(parts: unknown[]): Record<string, unknown> {
	return {
		candidates: [{ content: { role: "model", parts }, finishReason: "STOP", index: 0 }],
		usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 },
		modelVersion: "mock-model",
	};
}

/** Gemini API (Gemini CLI with `GOOGLE_GEMINI_BASE_URL`): `:streamGenerateContent?alt=sse`, `:generateContent`, `:countTokens`. */
export const googleApi: ModelApi = {
	name: "google",
	toolResults: googleToolResults,
	handle(record: RecordedRequest, steps: readonly ToolStep[]): Response {
		const body = obj(record.body);
		if (record.path.endsWith(":countTokens")) {
			record.kind = "count";
			return Response.json({ totalTokens: 42 });
		}
		const streaming = record.path.endsWith(":streamGenerateContent");
		if (!streaming && !record.path.endsWith(":generateContent")) {
			record.kind = "other";
			return Response.json({ error: { code: 404, message: `mock: no ${record.path}`, status: "NOT_FOUND" } }, { status: 404 });
		}
		const decls = declarations(body);
		let parts: unknown[];
		if (decls.length === 0) {
			record.kind = "side";
			const config = obj(body.generationConfig);
			const schema = config.responseJsonSchema ?? config.responseSchema;
			parts = [{ text: schema ? JSON.stringify(sampleFor(schema)) : "Mock title" }];
		} else {
			record.kind = "main";
			const turn = googleToolResults(body).length;
			record.turn = turn;
			const step = steps[turn];
			parts = step ? [{ functionCall: functionCall(step, decls, `call_${record.sub ? "sub" : ""}${turn + 1}`) }] : [{ text: FINAL_TEXT }];
		}
		return streaming ? sseResponse([sse(reply(parts))]) : Response.json(reply(parts));
	},
};
