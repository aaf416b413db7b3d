/** Every category of the guard's corpus, by name. */
import type { GuardCase } from "./_case.ts";
import {
	ANALYZER_BYPASS,
	CWD_ALLOW,
	CWD_BLOCK,
	HEREDOC_ALLOW,
	HEREDOC_BLOCK,
	LONG_OPTIONS_ALLOW,
	LONG_OPTIONS_BLOCK,
	NORMAL_DAY,
	UNSEEN_ALLOW,
	UNSEEN_BLOCK,
} from "./analyzer.ts";
import { BYPASS, WRAPPED_HARMLESS } from "./bypass.ts";
import { BYPASS_35, WRAPPED_HARMLESS_35 } from "./bypass-35.ts";
import { DATA } from "./data.ts";
import { EDGE } from "./edge.ts";
import { EVERYDAY_ALLOW } from "./everyday.ts";
import { FAMILIES_ALLOW, FAMILIES_BLOCK } from "./families.ts";
import { GIT_PARSING_ALLOW, GIT_PARSING_BLOCK } from "./git-parsing.ts";
import { ISSUE_ALLOW, ISSUE_BLOCK } from "./issue.ts";
import { ISSUE35_ALLOW, ISSUE35_BLOCK } from "./issue-35.ts";
import { MUST_ALLOW } from "./must-allow.ts";
import { MUST_BLOCK } from "./must-block.ts";
import { OPT_IN } from "./opt-in.ts";
import { RUNNER_ALLOW, RUNNER_BLOCK } from "./runners.ts";
import { WITHOUT_RM_BLOCK } from "./without-rm.ts";

export const CATEGORIES: Record<string, GuardCase[]> = {
	"issue: must block": ISSUE_BLOCK,
	"issue: must allow": ISSUE_ALLOW,
	"must block": MUST_BLOCK,
	"must allow": MUST_ALLOW,
	"bypass attempts": BYPASS,
	"wrapped but harmless": WRAPPED_HARMLESS,
	"data, not code": DATA,
	"edge cases": EDGE,
	"opt-in packs": OPT_IN,
	"issue 35: must block": ISSUE35_BLOCK,
	"issue 35: must allow": ISSUE35_ALLOW,
	"runners: must block": RUNNER_BLOCK,
	"runners: must allow": RUNNER_ALLOW,
	"long options: must block": LONG_OPTIONS_BLOCK,
	"long options: must allow": LONG_OPTIONS_ALLOW,
	"code it cannot see: must block": UNSEEN_BLOCK,
	"code it cannot see: must allow": UNSEEN_ALLOW,
	"working directory: must block": CWD_BLOCK,
	"working directory: must allow": CWD_ALLOW,
	"heredocs: must block": HEREDOC_BLOCK,
	"heredocs: must allow": HEREDOC_ALLOW,
	"a normal day (analyzer)": NORMAL_DAY,
	"analyzer bypass attempts": ANALYZER_BYPASS,
	"git as git reads it: must block": GIT_PARSING_BLOCK,
	"git as git reads it: must allow": GIT_PARSING_ALLOW,
	"destruction without rm: must block": WITHOUT_RM_BLOCK,
	"a normal day: must allow": EVERYDAY_ALLOW,
	"every family, opt-in: blocked with its pack, allowed without": FAMILIES_BLOCK,
	"every family, opt-in: left alone with its pack on": FAMILIES_ALLOW,
	"bypass attempts on issue 35's classes": BYPASS_35,
	"issue 35's ways around harmless commands": WRAPPED_HARMLESS_35,
};
