/** svc/db: not built yet; see the open issues. The entry point exists so the exports map is complete. */
export {};
