<?xml version="1.0" encoding="UTF-8"?>
<!-- Renders a BenchExec result XML (results/<benchmark>.<date>.results.<rundef>.xml, DTD
     result-1.x) as an HTML table: one row per run, one column per <column title>.
     XSLT 1.0: xsltproc benchexec-results.xsl RESULT.xml > result.html -->
<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">
  <xsl:output method="xml" encoding="UTF-8" indent="no" omit-xml-declaration="yes"
              doctype-system="about:legacy-compat"/>

  <xsl:template match="/result">
    <xsl:variable name="titles" select="run[1]/column[not(@hidden = 'true')]/@title"/>
    <html lang="en">
      <head>
        <meta charset="utf-8"/>
        <title>BenchExec results: <xsl:value-of select="@benchmarkname"/></title>
        <style>
          body{font-family:sans-serif} table{border-collapse:collapse}
          th,td{border:1px solid #ccc;padding:.2em .5em} td.num{text-align:right}
        </style>
      </head>
      <body>
        <h1>BenchExec results: <xsl:value-of select="@benchmarkname"/>
          <xsl:if test="@name"> (<xsl:value-of select="@name"/>)</xsl:if></h1>
        <p>Tool: <xsl:value-of select="@tool"/><xsl:text> </xsl:text><xsl:value-of select="@version"/>
          | started: <xsl:value-of select="@starttime"/>
          | time limit: <xsl:value-of select="@timelimit"/>
          | memory limit: <xsl:value-of select="@memlimit"/>
          | runs: <xsl:value-of select="count(run)"/></p>
        <table class="runs">
          <thead>
            <tr>
              <th>Run</th><th>Properties</th>
              <xsl:for-each select="$titles"><th><xsl:value-of select="."/></th></xsl:for-each>
            </tr>
          </thead>
          <tbody>
            <xsl:for-each select="run">
              <xsl:variable name="run" select="."/>
              <tr>
                <td><xsl:value-of select="@name"/></td>
                <td><xsl:value-of select="@properties"/></td>
                <xsl:for-each select="$titles">
                  <xsl:variable name="t" select="string(.)"/>
                  <td class="num"><xsl:value-of select="$run/column[@title = $t]/@value"/></td>
                </xsl:for-each>
              </tr>
            </xsl:for-each>
          </tbody>
        </table>
      </body>
    </html>
  </xsl:template>
</xsl:stylesheet>
