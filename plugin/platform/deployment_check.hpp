/* What a deployment file may give jobsched's own actors (jobsched_scheduler, jobsched_submitter).
 *
 * They run from the start of the simulation to its end and take their settings from the scenario, so SimGrid's
 * start_time, kill_time and on_failure, and <argument> and <prop> children, would not be honoured: kill_time on the
 * scheduler crashed the run or deadlocked it, start_time hid the actor from the deployment's checks, the rest was
 * silently ignored. An attribute with a value SimGrid reads as its default (start_time or kill_time of 0 or less: no
 * delay, no kill; on_failure DIE) changes nothing, and files written with every attribute spelt out ran before this
 * check existed: it is accepted. */
#pragma once

#include <filesystem>
#include <string>

namespace jobsched {

/* InputError("FILE:LINE: <actor function=\"F\">: ...") at the first attribute other than host and function (unless
 * at SimGrid's default), or child element, that `text` (the deployment `file` holds) gives an actor whose function is
 * one of jobsched's. */
void check_deployment_actors(const std::filesystem::path& file, const std::string& text);

} // namespace jobsched
