import TabStoreCLI

// `tabstore`: files here; a postgresql:// URL is handed to tabstore-postgres, which can load libpq.
TabstoreTool.main(servers: .handedOver(toCompanion: "tabstore-postgres"))
