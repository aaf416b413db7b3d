export {
	type AppendDecisionOptions,
	type AppendDecisionResult,
	appendDecision,
	type Decision,
	type DecisionEntry,
	decisionLine,
	decisionLogEnabled,
	DECISION_LOG_MAX_BYTES,
	decisionLogFile,
	previousLogFile,
} from "./decision-log.ts";
export {
	decisionParts,
	formatDecision,
	jsonLine,
	type LoggedDecision,
	matchesSession,
	type ParsedDecisions,
	parseDecisionLines,
} from "./read-log.ts";
