// Every test process: quiet logs, no SDK notice about Node 20 (versions are pinned in the lockfile).
process.env.LOG_LEVEL ??= 'silent';
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
process.env.WEATHER_PROVIDER ??= 'offline'; // tests never reach the internet; the provider paths are tested against a loopback stand-in
