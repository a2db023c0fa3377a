// Every test process: quiet logs, no SDK notice about Node 20 (versions are pinned in the lockfile).
process.env.LOG_LEVEL ??= 'silent';
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
